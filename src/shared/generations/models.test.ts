import { afterEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../i18n/runtime";
import de from "../i18n/translations/de";
import { describeLocalModel, translateModelDescription } from "./models";

describe("the offline engine's description", () => {
	afterEach(() => setActiveLanguage("en"));

	it("is written in English by the API and in the page's language on a screen", () => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
		const english = describeLocalModel(true, { language: "en" });
		expect(english).toBe(
			"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
		);
		expect(translateModelDescription(english)).toBe(
			"Generative Kunst, auf diesem Server gezeichnet, offline und kostenlos. Hochskalieren rechnet das Bild nur um (Lanczos): Es wird größer, gewinnt aber keine Details.",
		);
		expect(translateModelDescription(describeLocalModel(false, { language: "en" }))).toBe(
			"Generative Kunst, auf diesem Server gezeichnet, offline und kostenlos.",
		);
		// An operator's own description is shown as written.
		expect(translateModelDescription("Photographs, slowly")).toBe("Photographs, slowly");
	});
});
