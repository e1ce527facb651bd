import { describe, expect, it } from "vitest";
import { readPromptTheme } from "./prompt-theme";

describe("readPromptTheme", () => {
	it("takes the sky colour from the first colour word", () => {
		expect(readPromptTheme("a red fox").skyHue).toBe(25);
		expect(readPromptTheme("An anime boy with blue hair --niji 6").skyHue).toBe(245);
	});

	it("reads scenes and the time of day, plurals included", () => {
		const theme = readPromptTheme("Snowy mountains and a lake at night");
		expect(theme.scenes).toEqual(["mountains", "lake"]);
		expect(theme.lighting).toBe("night");
		expect(readPromptTheme("waves crashing on rocks").scenes).toEqual(["ocean"]);
	});

	it("leaves scenes open and picks colours from the hash when no word is known", () => {
		const theme = readPromptTheme("An hourglass on a study desk");
		expect(theme.scenes).toEqual([]);
		expect(theme.lighting).toBeUndefined();
		expect(readPromptTheme("An hourglass on a study desk")).toEqual(theme);
	});

	it("ignores words that name object properties", () => {
		const theme = readPromptTheme("constructor hasOwnProperty __proto__");
		expect(theme.scenes).toEqual([]);
		expect(theme.chroma).toBe(1);
	});
});
