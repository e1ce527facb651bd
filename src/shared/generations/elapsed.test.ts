import { describe, expect, it } from "vitest";
import { formatElapsed, UNKNOWN_ELAPSED } from "./elapsed";

describe("formatElapsed", () => {
	it("shows milliseconds under a second", () => {
		expect(formatElapsed(0)).toBe("0ms");
		expect(formatElapsed(850)).toBe("850ms");
		expect(formatElapsed(999.9)).toBe("999ms");
	});

	it("shows seconds with one decimal under a minute, never rounding up", () => {
		expect(formatElapsed(1_000)).toBe("1.0s");
		expect(formatElapsed(3_250)).toBe("3.2s");
		expect(formatElapsed(12_345)).toBe("12.3s");
		expect(formatElapsed(59_999)).toBe("59.9s");
	});

	it("shows minutes and seconds from a minute on", () => {
		expect(formatElapsed(60_000)).toBe("1m 0s");
		expect(formatElapsed(125_400)).toBe("2m 5s");
		expect(formatElapsed(3_600_000)).toBe("60m 0s");
	});

	it("writes the same times in German", async () => {
		const { registerCatalogue } = await import("../i18n/runtime");
		registerCatalogue("de", (await import("../i18n/translations/de")).default);
		const german = { language: "de" } as const;
		expect(formatElapsed(850, german)).toBe("850 ms");
		expect(formatElapsed(12_345, german)).toBe("12,3 s");
		expect(formatElapsed(59_999, german)).toBe("59,9 s");
		expect(formatElapsed(125_400, german)).toBe("2 min 5 s");
	});

	it("shows a dash when the value is unknown", () => {
		expect(UNKNOWN_ELAPSED).toBe("—");
		expect(formatElapsed(null)).toBe(UNKNOWN_ELAPSED);
		expect(formatElapsed(undefined)).toBe(UNKNOWN_ELAPSED);
		expect(formatElapsed(Number.NaN)).toBe(UNKNOWN_ELAPSED);
		expect(formatElapsed(Number.POSITIVE_INFINITY)).toBe(UNKNOWN_ELAPSED);
	});

	it("shows a slightly negative duration, from clocks that disagree, as none", () => {
		expect(formatElapsed(-40)).toBe("0ms");
	});
});
