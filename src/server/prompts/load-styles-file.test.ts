import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadStylesFile, StylesFileError } from "./load-styles-file";

async function writeStylesFile(entries: unknown): Promise<string> {
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-styles-"));
	onTestFinished(() => rm(folder, { recursive: true, force: true }));
	const file = path.join(folder, "styles.json");
	await writeFile(file, typeof entries === "string" ? entries : JSON.stringify(entries));
	return file;
}

function problemsOf(load: () => unknown): readonly string[] {
	try {
		load();
	} catch (error) {
		if (error instanceof StylesFileError) return error.problems;
		throw error;
	}
	throw new Error("the file was accepted");
}

describe("STYLES_FILE", () => {
	it("offers no style without a file", () => {
		expect(loadStylesFile(undefined)).toEqual([]);
	});

	it("reads the operator's styles, trimmed, a missing negative part as null", async () => {
		const file = await writeStylesFile([
			{
				id: "cinematic",
				name: " Cinematic ",
				prompt: "{prompt}, 35 mm film",
				negativePrompt: "cartoon",
			},
			{ id: "ink", name: "Ink", prompt: "ink drawing of {prompt}" },
		]);
		expect(loadStylesFile(file)).toEqual([
			{
				id: "cinematic",
				name: "Cinematic",
				prompt: "{prompt}, 35 mm film",
				negativePrompt: "cartoon",
				scope: "operator",
			},
			{
				id: "ink",
				name: "Ink",
				prompt: "ink drawing of {prompt}",
				negativePrompt: null,
				scope: "operator",
			},
		]);
	});

	it("refuses every bad entry, naming the entry and the field", async () => {
		const file = await writeStylesFile([
			{ id: "good", name: "Good", prompt: "{prompt}" },
			{ id: "no-placeholder", name: "Plain", prompt: "a watercolour" },
			{ id: "bad id!", name: "Bad", prompt: "{prompt}" },
			{ name: "No id", prompt: "{prompt}" },
			{ id: "good", name: "Twice", prompt: "{prompt}, again" },
			{ id: "script", name: "Script", prompt: "<script>{prompt}" },
			{ id: "extra", name: "Extra", prompt: "{prompt}", colour: "red" },
			{ id: "negative", name: "Negative", prompt: "{prompt}", negativePrompt: 3 },
		]);
		expect(problemsOf(() => loadStylesFile(file))).toEqual([
			"entry 2 (no-placeholder): prompt: must contain {prompt}",
			"entry 3 (bad id!): id: must be 1 to 64 letters, digits or -",
			"entry 4: id: is required",
			'entry 5 (good): id: "good" is used by an earlier entry',
			"entry 6 (script): prompt: contains invalid content",
			'entry 7 (extra): colour: Unrecognized key: "colour"',
			"entry 8 (negative): negativePrompt: must be text",
		]);
	});

	it("refuses a file that is not a JSON array, naming the file", async () => {
		const notJson = await writeStylesFile("[{");
		expect(problemsOf(() => loadStylesFile(notJson))[0]).toContain(notJson);
		const notArray = await writeStylesFile({ id: "one" });
		expect(problemsOf(() => loadStylesFile(notArray))).toEqual([
			`${notArray}: must be a JSON array of styles`,
		]);
	});
});
