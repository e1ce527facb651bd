import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { type Env, parseEnv } from "../config/env";
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

// A Flux-style workflow in API format with its own node ids, and no negative prompt node.
const FLUX_WORKFLOW = {
	"10": {
		class_type: "CheckpointLoaderSimple",
		inputs: { ckpt_name: "flux1-schnell.safetensors" },
	},
	"11": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["10", 1] } },
	"12": { class_type: "EmptySD3LatentImage", inputs: { width: 1024, height: 1024, batch_size: 1 } },
	"13": {
		class_type: "KSampler",
		inputs: { seed: 1, model: ["10", 0], positive: ["11", 0], latent_image: ["12", 0] },
	},
	"14": { class_type: "VAEDecode", inputs: { samples: ["13", 0], vae: ["10", 2] } },
	"15": { class_type: "SaveImage", inputs: { filename_prefix: "flux", images: ["14", 0] } },
};
const FLUX_INPUTS = {
	prompt: "11.text",
	width: "12.width",
	height: "12.height",
	batch: "12.batch_size",
	seed: "13.seed",
};

/** A models file with a workflow file beside it (`flux.json`), as entries name it. */
async function writeModelsWithWorkflow(entries: unknown, workflow: unknown = FLUX_WORKFLOW) {
	const file = await writeModelsFile(entries);
	const text = typeof workflow === "string" ? workflow : JSON.stringify(workflow);
	await writeFile(path.join(path.dirname(file), "flux.json"), text);
	return file;
}

const HOSTED_KEYS = {
	REPLICATE_API_TOKEN: "r8_test",
	FAL_KEY: "id:secret",
	OPENAI_API_KEY: "sk-x",
};

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
			expect.objectContaining({
				id: "local",
				label: "Offline engine",
				// What its upscale is, said where the models are listed.
				description:
					"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
				pricePerImage: null,
				imageInput: true,
				referenceStrength: true,
				upscale: [2, 4],
				upscaleResamples: true,
			}),
		]);
		expect(catalogue.defaultModelId).toBe("local");
	});

	it("offers every entry of MODELS_FILE, each narrowed as its entry says, with its default", async () => {
		const file = await writeModelsFile([
			{ id: "sketch", label: "Quick sketch", provider: "local", delayMs: 0, counts: [1, 2] },
			{ id: "flat", label: "Flat", provider: "local", upscale: [] },
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
		// The offline engine says what it is, and what its upscale is, unless its entry says otherwise.
		expect(catalogue.find("sketch")).toMatchObject({
			counts: [1, 2],
			description:
				"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
			upscaleResamples: true,
		});
		expect(catalogue.find("flat")).toMatchObject({
			description: "Generative art drawn on this server, offline and free.",
			upscale: [],
			upscaleResamples: false,
		});
		expect(catalogue.find("poster-2")).toMatchObject({
			ratios: ["--ar 16:9", "--ar 21:9"],
			pricePerImage: 0.04,
			description: "Wide posters",
			counts: [1, 2, 3, 4],
		});
		expect(catalogue.find("photo")).toMatchObject({ description: null, referenceStrength: false });
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

	it("offers each provider's settings as its options and the environment say", async () => {
		const file = await writeModelsWithWorkflow([
			{ id: "sd15", label: "SD 1.5", provider: "comfyui", url: "http://127.0.0.1:8188" },
			{
				id: "flux",
				label: "Flux",
				provider: "comfyui",
				url: "http://127.0.0.1:8188",
				workflowFile: "flux.json",
				inputs: FLUX_INPUTS,
			},
			{
				id: "flux-negative",
				label: "Flux with a negative prompt",
				provider: "comfyui",
				url: "http://127.0.0.1:8188",
				workflowFile: "flux.json",
				inputs: { ...FLUX_INPUTS, negativePrompt: "11.text" },
			},
			{
				id: "sdxl",
				label: "SDXL",
				provider: "replicate",
				model: "stability-ai/sdxl:7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc",
				negativePromptInput: "negative_prompt",
			},
			{ id: "schnell", label: "Schnell", provider: "replicate", seedInput: "none" },
			{ id: "fal-flux", label: "fal Flux", provider: "fal" },
			{
				id: "sd35",
				label: "SD 3.5",
				provider: "fal",
				model: "fal-ai/stable-diffusion-v35-large",
				seedInput: "seed",
				negativePromptInput: "negative_prompt",
			},
			{ id: "gpt", label: "GPT image", provider: "openai", quality: "high" },
		]);
		const catalogue = loadModelCatalogue(parseTestEnv({ MODELS_FILE: file, ...HOSTED_KEYS }));
		const settingsOf = (id: string) => {
			const model = catalogue.find(id);
			return model && [model.seed, model.negativePrompt, model.qualities];
		};
		expect(settingsOf("sd15")).toEqual([true, true, []]);
		expect(settingsOf("flux")).toEqual([true, false, []]);
		expect(settingsOf("flux-negative")).toEqual([true, true, []]);
		expect(settingsOf("sdxl")).toEqual([true, true, []]);
		expect(settingsOf("schnell")).toEqual([false, false, []]);
		expect(settingsOf("fal-flux")).toEqual([true, false, []]);
		expect(settingsOf("sd35")).toEqual([true, true, []]);
		expect(settingsOf("gpt")).toEqual([false, false, ["low", "medium", "high"]]);
		expect(catalogue.find("gpt")?.provider.capabilities.defaultQuality).toBe("high");
	});

	it("falls back to the environment's seed and negative prompt inputs", async () => {
		const file = await writeModelsFile([
			{ id: "sd15", label: "SD 1.5", provider: "comfyui", url: "http://127.0.0.1:8188" },
			{ id: "sdxl", label: "SDXL", provider: "replicate" },
			{ id: "sd35", label: "SD 3.5", provider: "fal" },
			{ id: "gpt", label: "GPT image", provider: "openai" },
		]);
		const catalogue = loadModelCatalogue(
			parseTestEnv({
				MODELS_FILE: file,
				...HOSTED_KEYS,
				COMFYUI_NEGATIVE_PROMPT_INPUT: "none",
				REPLICATE_NEGATIVE_PROMPT_INPUT: "negative_prompt",
				FAL_SEED_INPUT: "none",
				FAL_NEGATIVE_PROMPT_INPUT: "negative_prompt",
				OPENAI_IMAGE_QUALITY: "auto",
			}),
		);
		expect(catalogue.find("sd15")).toMatchObject({ seed: true, negativePrompt: false });
		expect(catalogue.find("sdxl")).toMatchObject({ seed: true, negativePrompt: true });
		expect(catalogue.find("sd35")).toMatchObject({ seed: false, negativePrompt: true });
		expect(catalogue.find("gpt")?.provider.capabilities).not.toHaveProperty("defaultQuality");
	});

	it("refuses settings options that do not fit, naming the entry's field or the variable it fell back to", async () => {
		const file = await writeModelsWithWorkflow([
			{
				id: "flux",
				label: "Flux",
				provider: "comfyui",
				url: "http://127.0.0.1:8188",
				workflowFile: "flux.json",
				inputs: { ...FLUX_INPUTS, negativePrompt: "7.text" },
			},
			{
				id: "flux-defaults",
				label: "Flux",
				provider: "comfyui",
				url: "http://127.0.0.1:8188",
				workflowFile: "flux.json",
				inputs: { seed: "13.model" },
			},
			{
				id: "typo",
				label: "Typo",
				provider: "comfyui",
				url: "http://127.0.0.1:8188",
				inputs: { negativePrompt: "7" },
			},
			{ id: "rep", label: "Rep", provider: "replicate", seedInput: "the seed" },
			{ id: "fal", label: "fal", provider: "fal", negativePromptInput: 5 },
			{ id: "no-negative", label: "No", provider: "fal", negativePrompt: true },
			{ id: "gpt", label: "GPT", provider: "openai", quality: "ultra" },
		]);
		const problems = problemsOf(() =>
			loadModelCatalogue(parseTestEnv({ MODELS_FILE: file, ...HOSTED_KEYS })),
		);
		expect(problems).toEqual([
			'entry 1 (flux): inputs.negativePrompt: 7.text: the workflow has no node "7"',
			'entry 2 (flux-defaults): COMFYUI_PROMPT_INPUT: 6.text: the workflow has no node "6"',
			'entry 2 (flux-defaults): COMFYUI_WIDTH_INPUT: 5.width: the workflow has no node "5"',
			'entry 2 (flux-defaults): COMFYUI_HEIGHT_INPUT: 5.height: the workflow has no node "5"',
			'entry 2 (flux-defaults): COMFYUI_BATCH_INPUT: 5.batch_size: the workflow has no node "5"',
			"entry 2 (flux-defaults): inputs.seed: 13.model: that input is linked to another node; name the node that holds the value",
			expect.stringMatching(/^entry 3 \(typo\): inputs\.negativePrompt: /),
			expect.stringMatching(/^entry 4 \(rep\): seedInput: must be an input name of the model/),
			expect.stringMatching(/^entry 5 \(fal\): negativePromptInput: /),
			"entry 6 (no-negative): negativePrompt: fal takes no negative prompt",
			expect.stringMatching(/^entry 7 \(gpt\): quality: /),
		]);
	});

	it("names the workflowFile field when the workflow cannot be used", async () => {
		const file = await writeModelsWithWorkflow(
			[
				{
					id: "ui",
					label: "UI export",
					provider: "comfyui",
					url: "http://127.0.0.1:8188",
					workflowFile: "flux.json",
				},
			],
			{ nodes: [], links: [] },
		);
		expect(problemsOf(() => loadModelCatalogue(parseTestEnv({ MODELS_FILE: file })))).toEqual([
			expect.stringMatching(
				/^entry 1 \(ui\): workflowFile: .*flux\.json is in ComfyUI's UI format/,
			),
		]);
	});
});

describe("the model catalogue: what each model does with an image", () => {
	// ComfyUI's stock nodes for an image-to-image graph over the Flux-style workflow's ids.
	const FLUX_IMAGE_WORKFLOW = {
		...FLUX_WORKFLOW,
		"20": { class_type: "LoadImage", inputs: { image: "example.png" } },
		"21": { class_type: "VAEEncode", inputs: { pixels: ["20", 0], vae: ["10", 2] } },
		"13": {
			class_type: "KSampler",
			inputs: {
				seed: 1,
				denoise: 0.6,
				model: ["10", 0],
				positive: ["11", 0],
				latent_image: ["21", 0],
			},
		},
	};
	const FLUX_IMAGE_INPUTS = {
		image: "20.image",
		denoise: "13.denoise",
		prompt: "11.text",
		seed: "13.seed",
	};
	const MODEL_UPSCALE_WORKFLOW = {
		"1": { class_type: "LoadImage", inputs: { image: "example.png" } },
		"2": { class_type: "UpscaleModelLoader", inputs: { model_name: "4x-UltraSharp.pth" } },
		"3": {
			class_type: "ImageUpscaleWithModel",
			inputs: { upscale_model: ["2", 0], image: ["1", 0] },
		},
		"4": {
			class_type: "ImageScaleBy",
			inputs: { upscale_method: "lanczos", scale_by: 0.5, image: ["3", 0] },
		},
		"5": { class_type: "SaveImage", inputs: { filename_prefix: "up", images: ["4", 0] } },
	};

	async function writeModelsWithImageWorkflows(entries: unknown): Promise<string> {
		const file = await writeModelsWithWorkflow(entries);
		const folder = path.dirname(file);
		await writeFile(path.join(folder, "flux-img2img.json"), JSON.stringify(FLUX_IMAGE_WORKFLOW));
		await writeFile(path.join(folder, "upscale.json"), JSON.stringify(MODEL_UPSCALE_WORKFLOW));
		return file;
	}

	it("offers image input and upscaling as each entry's provider and fields say", async () => {
		const comfy = { provider: "comfyui", url: "http://127.0.0.1:8188" };
		const file = await writeModelsWithImageWorkflows([
			{ id: "sd15", label: "SD 1.5", ...comfy },
			{ id: "flux", label: "Flux", ...comfy, workflowFile: "flux.json", inputs: FLUX_INPUTS },
			{
				id: "flux-img",
				label: "Flux with images",
				...comfy,
				workflowFile: "flux.json",
				inputs: FLUX_INPUTS,
				imageWorkflow: { workflowFile: "flux-img2img.json", inputs: FLUX_IMAGE_INPUTS },
				upscaleWorkflow: {
					workflowFile: "upscale.json",
					inputs: { image: "1.image", factor: "4.scale_by" },
					factors: [2],
				},
			},
			{ id: "sd15-x2", label: "SD 1.5, 2x", ...comfy, upscale: [2], imageInput: false },
			{
				id: "flux-dev",
				label: "Flux dev",
				provider: "replicate",
				model: "black-forest-labs/flux-dev",
				imageInput: "image",
				strengthInput: "prompt_strength",
			},
			{
				id: "esrgan",
				label: "Real-ESRGAN",
				provider: "replicate",
				model: "nightmareai/real-esrgan",
				imageInput: "image",
				scaleInput: "scale",
				upscale: [2, 4],
			},
			{
				id: "fal-esrgan",
				label: "ESRGAN on fal",
				provider: "fal",
				model: "fal-ai/esrgan",
				imageInput: "image_url",
				scaleInput: "scale",
				upscale: [2],
			},
			{ id: "gpt", label: "GPT Image", provider: "openai" },
			{ id: "gpt-text", label: "GPT Image, text", provider: "openai", imageInput: false },
		]);
		const catalogue = loadModelCatalogue(parseTestEnv({ MODELS_FILE: file, ...HOSTED_KEYS }));
		const shown = catalogue.models.map(
			({ id, textToImage, imageInput, referenceStrength, upscale, upscaleResamples }) => ({
				id,
				textToImage,
				imageInput,
				referenceStrength,
				upscale,
				upscaleResamples,
			}),
		);
		const model = (
			id: string,
			textToImage: boolean,
			imageInput: boolean,
			referenceStrength: boolean,
			upscale: number[],
			upscaleResamples = false,
		) => ({ id, textToImage, imageInput, referenceStrength, upscale, upscaleResamples });
		expect(shown).toEqual([
			// The shipped workflows: denoise is the strength, the upscale a Lanczos resample.
			model("sd15", true, true, true, [2, 4], true),
			model("flux", true, false, false, []),
			// One's own upscale workflow may add detail.
			model("flux-img", true, true, true, [2]),
			model("sd15-x2", true, false, false, [2], true),
			model("flux-dev", true, true, true, []),
			model("esrgan", false, false, false, [2, 4]),
			model("fal-esrgan", false, false, false, [2]),
			// OpenAI's edit endpoint takes no strength.
			model("gpt", true, true, false, []),
			model("gpt-text", true, false, false, []),
		]);
	});

	it("offers ComfyUI's shipped image workflows without MODELS_FILE, and none beside your own text workflow", async () => {
		const shipped = loadModelCatalogue(
			parseTestEnv({ IMAGE_PROVIDER: "comfyui", COMFYUI_URL: "http://127.0.0.1:8188" }),
		).defaultModel();
		expect([shipped.imageInput, shipped.upscale]).toEqual([true, [2, 4]]);
		const file = await writeModelsWithWorkflow([{ id: "x", label: "X", provider: "local" }]);
		const own = loadModelCatalogue(
			parseTestEnv({
				IMAGE_PROVIDER: "comfyui",
				COMFYUI_URL: "http://127.0.0.1:8188",
				COMFYUI_WORKFLOW_FILE: path.join(path.dirname(file), "flux.json"),
				COMFYUI_PROMPT_INPUT: FLUX_INPUTS.prompt,
				COMFYUI_WIDTH_INPUT: FLUX_INPUTS.width,
				COMFYUI_HEIGHT_INPUT: FLUX_INPUTS.height,
				COMFYUI_BATCH_INPUT: FLUX_INPUTS.batch,
				COMFYUI_SEED_INPUT: FLUX_INPUTS.seed,
			}),
		).defaultModel();
		expect([own.imageInput, own.upscale]).toEqual([false, []]);
	});

	it("refuses image fields that cannot work, naming the entry and the field", async () => {
		const comfy = { provider: "comfyui", url: "http://127.0.0.1:8188" };
		const file = await writeModelsWithImageWorkflows([
			{ id: "r1", label: "R", provider: "replicate", imageInput: "image", upscale: [2] },
			{ id: "r2", label: "R", provider: "replicate", imageInput: "image", scaleInput: "scale" },
			{ id: "f1", label: "F", provider: "fal", imageInput: true },
			{ id: "f2", label: "F", provider: "fal", strengthInput: "strength" },
			{
				id: "c1",
				label: "C",
				...comfy,
				workflowFile: "flux.json",
				inputs: FLUX_INPUTS,
				imageInput: true,
			},
			{
				id: "c2",
				label: "C",
				...comfy,
				upscaleWorkflow: { factors: [2] },
				upscale: [4],
			},
			{ id: "c3", label: "C", ...comfy, imageWorkflow: { inputs: { image: "99.image" } } },
			{ id: "c4", label: "C", ...comfy, imageInput: "image" },
			{ id: "o1", label: "O", provider: "openai", upscale: [2] },
			{ id: "o2", label: "O", provider: "openai", upscale: [3] },
			// The shipped workflows with the image bound to a text node and to the scaler.
			{ id: "c5", label: "C", ...comfy, imageWorkflow: { inputs: { image: "6.text" } } },
			{ id: "c6", label: "C", ...comfy, upscaleWorkflow: { inputs: { image: "2.scale_by" } } },
		]);
		expect(
			problemsOf(() => loadModelCatalogue(parseTestEnv({ MODELS_FILE: file, ...HOSTED_KEYS }))),
		).toEqual([
			'entry 1 (r1): scaleInput: is required to upscale (upscale lists factors): the model\'s factor input, such as "scale"',
			"entry 2 (r2): upscale: an upscaler (scaleInput) must list the factors it offers, such as [2, 4]",
			'entry 3 (f1): imageInput: must name the model\'s image input, such as "image" or "image_url"',
			"entry 4 (f2): strengthInput: needs imageInput, the name of the model's image input",
			"entry 5 (c1): imageInput: ComfyUI takes an image only with an image-to-image workflow (imageWorkflow)",
			"entry 6 (c2): upscale: ComfyUI offers only 2",
			'entry 7 (c3): imageWorkflow.inputs.image: 99.image: the workflow has no node "99"',
			"entry 8 (c4): imageInput: names a model input only for replicate and fal; ComfyUI takes true or false",
			"entry 9 (o1): upscale: OpenAI cannot upscale",
			expect.stringMatching(/^entry 10 \(o2\): upscale\.0: must list factors among 2, 4/),
			'entry 11 (c5): imageWorkflow.inputs.image: 6.text: node "6" (CLIPTextEncode) is not a LoadImage node; the image is uploaded to ComfyUI and named in a LoadImage node\'s input',
			'entry 12 (c6): upscaleWorkflow.inputs.image: 2.scale_by: node "2" (ImageScaleBy) is not a LoadImage node; the image is uploaded to ComfyUI and named in a LoadImage node\'s input',
		]);
	});

	it("offers Edit region and Expand as each entry's provider and fields say, and refuses fields that cannot work", async () => {
		const offered = await writeModelsFile([
			{ id: "local", label: "L", provider: "local" },
			{ id: "no-expand", label: "L", provider: "local", outpaint: false },
			{ id: "no-regions", label: "L", provider: "local", mask: false },
			{ id: "inpaint", label: "R", provider: "replicate", imageInput: "image", mask: "mask" },
			{ id: "flux", label: "F", provider: "fal", imageInput: "image_url" },
		]);
		const catalogue = loadModelCatalogue(parseTestEnv({ MODELS_FILE: offered, ...HOSTED_KEYS }));
		expect(
			catalogue.models.map((model) => [model.id, model.mask, model.outpaint, model.keepUnmasked]),
		).toEqual([
			["local", true, true, true],
			["no-expand", true, false, true],
			["no-regions", false, true, true],
			["inpaint", true, true, true],
			["flux", false, false, true],
		]);
		const refused = await writeModelsFile([
			{ id: "f1", label: "F", provider: "fal", imageInput: "image_url", mask: true },
			{ id: "r1", label: "R", provider: "replicate", mask: "mask" },
			{ id: "l1", label: "L", provider: "local", mask: "mask" },
			{ id: "h1", label: "H", provider: "http", url: "http://127.0.0.1:9/", mask: true },
			{ id: "h2", label: "H", provider: "http", url: "http://127.0.0.1:9/", outpaint: true },
			{ id: "l2", label: "L", provider: "local", keepUnmasked: "no" },
		]);
		expect(
			problemsOf(() => loadModelCatalogue(parseTestEnv({ MODELS_FILE: refused, ...HOSTED_KEYS }))),
		).toEqual([
			'entry 1 (f1): mask: must name the model\'s mask input, such as "mask" or "mask_url"',
			"entry 2 (r1): mask: needs imageInput, the name of the model's image input",
			"entry 3 (l1): mask: names a model input only for replicate and fal; Offline engine takes true or false",
			"entry 4 (h1): mask: needs imageInput: true, the service taking the image",
			"entry 5 (h2): outpaint: Image service cannot paint beyond a frame",
			"entry 6 (l2): keepUnmasked: must be true or false",
		]);
	});
});
