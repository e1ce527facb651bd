import { describe, expect, it } from "vitest";
import { registerCatalogue } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { describeDevice } from "./device-name";

const GERMAN = { language: "de" } as const;

describe("describeDevice", () => {
	it("names the browser and the system", () => {
		expect(
			describeDevice("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"),
		).toBe("Firefox on Linux");
		expect(
			describeDevice(
				"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
			),
		).toBe("Edge on Windows");
		expect(
			describeDevice(
				"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
			),
		).toBe("Safari on iOS");
	});

	it("says so when it cannot tell", () => {
		expect(describeDevice(null)).toBe("Unknown device");
		expect(describeDevice("curl/8.5.0")).toBe("Unknown device");
	});
});

describe("describeDevice on a German page", () => {
	it("names the device in German, the browser's and the system's names as they are", () => {
		registerCatalogue("de", de);
		expect(
			describeDevice(
				"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
				GERMAN,
			),
		).toBe("Firefox auf Linux");
		expect(describeDevice(null, GERMAN)).toBe("Unbekanntes Gerät");
		expect(describeDevice("curl/8.5.0", GERMAN)).toBe("Unbekanntes Gerät");
	});
});
