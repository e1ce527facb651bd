import { afterEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { formatBytes } from "./number-format";

describe("formatBytes", () => {
	afterEach(() => setActiveLanguage("en"));

	it("writes sizes in English as the screens always have", () => {
		expect(formatBytes(512)).toBe("512 bytes");
		expect(formatBytes(1)).toBe("1 bytes");
		expect(formatBytes(1_500_000)).toBe("1.5 MB");
	});

	it("writes sizes in German, bytes too", () => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
		expect(formatBytes(512)).toBe("512 Byte");
		expect(formatBytes(1_500_000)).toBe("1,5 MB");
	});
});
