import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { type Env, parseEnv } from "../env";
import { loadModelCatalogue, ModelsFileError } from "./load-model-catalogue";
import { toPublicModel } from "./model-catalogue";

function parseTestEnv(values: Record<string, string>): Env {
	const result = parseEnv(values);
	if (!result.ok) throw new Error(result.problems.join("; "));
	return result.env;
}

async function writeModelsFile(entries: unknown): Promise<string> {
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-models-"));
	onTestFinished(() => rm(folder, { recursive: true, force: true }));
	const file = path.join(folder, "models.json");
	await writeFile(file, typeof entries === "string" ? entries : JSON.stringify(entries));
	return file;
}

function problemsOf(run: () => unknown): readonly string[] {
	try {
		run();
	} catch (error) {
		if (error instanceof ModelsFileError) return error.problems;
		throw error;
	}
	throw new Error("the catalogue was accepted");
}

describe("the model catalogue", () => {
	it("is the one model IMAGE_PROVIDER names without MODELS_FILE", () => {
		const catalogue = loadModelCatalogue(parseTestEnv({ IMAGE_PROVIDER: "local" }));
		expect(catalogue.models.map(toPublicModel)).toEqual([
			expect.objectContaining({ id: "local", label: "Offline engine", pricePerImage: null }),
		]);
		expect(catalogue.defaultModelId).toBe("local");
	});

	it("offers every entry of MODELS_FILE, each narrowed as its entry says, with its default", async () => {
		const file = await writeModelsFile([
			{ id: "sketch", label: "Quick sketch", provider: "local", delayMs: 0, counts: [1, 2] },
			{
				id: "poster-2",
				label: "Posters",
				provider: "local",
				description: "Wide posters",
				pricePerImage: 0.04,
				ratios: ["--ar 16:9", "--ar 21:9"],
				default: true,
			},
			{
				id: "photo",
				label: "Photo",
				provider: "openai",
				model: "gpt-image-1",
			},
		]);
		const catalogue = loadModelCatalogue(
			parseTestEnv({ MODELS_FILE: file, OPENAI_API_KEY: "sk-test" }),
		);
		expect(catalogue.defaultModelId).toBe("poster-2");
		expect(catalogue.find("sketch")).toMatchObject({ counts: [1, 2], description: null });
		expect(catalogue.find("poster-2")).toMatchObject({
			ratios: ["--ar 16:9", "--ar 21:9"],
			pricePerImage: 0.04,
			description: "Wide posters",
			counts: [1, 2, 3, 4],
		});
		expect(catalogue.find("photo")?.provider.name).toBe("openai");
		// Two entries of one provider are two instances, each with its own options.
		expect(catalogue.find("sketch")?.provider).not.toBe(catalogue.find("poster-2")?.provider);
	});

	it("makes the first entry the default when none says so, and reads paths beside the file", async () => {
		const file = await writeModelsFile([
			{ id: "a", label: "A", provider: "local" },
			{ id: "b", label: "B", provider: "local" },
		]);
		const relative = path.relative(process.cwd(), file);
		expect(loadModelCatalogue(parseTestEnv({ MODELS_FILE: relative })).defaultModelId).toBe("a");
	});

	it("refuses a file with problems, naming the entry and the field of every one", async () => {
		const file = await writeModelsFile([
			{ id: "ok", label: "Fine", provider: "local", default: true },
			{ id: "ok", label: "Again", provider: "local" },
			{ id: "mystery", label: "Mystery", provider: "midjourney" },
			{ id: "web", label: "Web", provider: "http" },
			{ id: "typo", label: "Typo", provider: "local", delay: 5 },
			{ id: "wide", label: "Wide", provider: "local", ratios: ["--ar 4:3"], counts: [0, 5] },
			{ id: "bad id!", label: "", provider: "local" },
			{ id: "second", label: "Second default", provider: "local", default: true },
			{ id: "seedy", label: "Seeds", provider: "openai", seed: true, qualities: ["ultra"] },
			{ id: "paid", label: "Paid", provider: "replicate" },
		]);
		const problems = problemsOf(() =>
			loadModelCatalogue(parseTestEnv({ MODELS_FILE: file, OPENAI_API_KEY: "sk-test" })),
		);
		expect(problems).toEqual(
			expect.arrayContaining([
				'entry 2 (ok): id: "ok" is used by an earlier entry',
				expect.stringMatching(/^entry 3 \(mystery\): provider: must be one of local, http/),
				expect.stringMatching(/^entry 4 \(web\): url: is required \(or IMAGE_API_URL/),
				"entry 5 (typo): delay: is not an option of this provider",
				expect.stringMatching(/^entry 6 \(wide\): ratios\.0: must be one of --ar 1:1/),
				expect.stringMatching(/^entry 6 \(wide\): counts\.0: /),
				expect.stringMatching(/^entry 6 \(wide\): counts\.1: must be from 1 to 4/),
				expect.stringMatching(/^entry 7 \(bad id!\): id: must be 1 to 64 letters/),
				expect.stringMatching(/^entry 7 \(bad id!\): label: is required/),
				"default: only one model may be the default; these are: ok, second",
				expect.stringMatching(/^entry 9 \(seedy\): qualities\.0: /),
				"entry 10 (paid): provider: needs REPLICATE_API_TOKEN in the environment",
			]),
		);
	});

	it("refuses narrowing that would offer what the provider cannot do", async () => {
		const file = await writeModelsFile([
			{ id: "web", label: "Web", provider: "http", url: "http://127.0.0.1:9/x", seed: true },
			{
				id: "web-2",
				label: "Web",
				provider: "http",
				url: "http://127.0.0.1:9/x",
				qualities: ["low"],
			},
		]);
		expect(problemsOf(() => loadModelCatalogue(parseTestEnv({ MODELS_FILE: file })))).toEqual([
			"entry 1 (web): seed: Image service takes no seed",
			"entry 2 (web-2): qualities: Image service has no quality setting",
		]);
	});

	it.each([
		["[]", /must be a JSON array of one or more models/],
		["{ not json", /models\.json: /],
		['{"id": "x"}', /must be a JSON array/],
	])("refuses a file that is not a list of models: %s", async (text, message) => {
		const file = await writeModelsFile(text);
		const problems = problemsOf(() => loadModelCatalogue(parseTestEnv({ MODELS_FILE: file })));
		expect(problems.join("\n")).toMatch(message);
	});

	it("names a models file that cannot be read", () => {
		const problems = problemsOf(() =>
			loadModelCatalogue(parseTestEnv({ MODELS_FILE: "/nonexistent/models.json" })),
		);
		expect(problems[0]).toMatch(/\/nonexistent\/models\.json: .*ENOENT/);
	});
});
