import { describe, expect, it } from "vitest";
import { ASPECT_RATIOS } from "../../../shared/generations/aspect-ratios";
import { describeAspectRatio } from "./aspect-ratio-label";

describe("describeAspectRatio", () => {
	it("names every ratio in English as shared/generations/aspect-ratios.ts does", () => {
		for (const option of ASPECT_RATIOS) {
			expect(describeAspectRatio(option)).toBe(option.label);
		}
	});

	it("names a ratio in German when asked", async () => {
		const { registerCatalogue, setActiveLanguage } = await import("../../../shared/i18n/runtime");
		const german = (await import("../../../shared/i18n/translations/de")).default;
		registerCatalogue("de", german);
		setActiveLanguage("de");
		try {
			expect(describeAspectRatio(ASPECT_RATIOS[0])).toBe("Quadrat");
		} finally {
			setActiveLanguage("en");
		}
	});
});
