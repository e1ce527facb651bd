import { afterEach, describe, expect, it } from "vitest";
import { registerCatalogue, setActiveLanguage } from "../i18n/runtime";
import de from "../i18n/translations/de";
import { ACTION_LABELS, GENERATION_ACTIONS } from "./image-input";

registerCatalogue("de", de);

describe("the image actions' labels", () => {
	afterEach(() => setActiveLanguage("en"));

	it("are written in the page's language, their English unchanged", () => {
		expect(GENERATION_ACTIONS.map((action) => ACTION_LABELS[action]())).toEqual([
			"Vary (subtle)",
			"Vary (strong)",
			"Upscale",
			"Edit",
			"Edit region",
			"Expand",
		]);
		setActiveLanguage("de");
		expect(GENERATION_ACTIONS.map((action) => ACTION_LABELS[action]())).toEqual([
			"Variieren (leicht)",
			"Variieren (stark)",
			"Hochskalieren",
			"Bearbeiten",
			"Bereich bearbeiten",
			"Erweitern",
		]);
	});
});
