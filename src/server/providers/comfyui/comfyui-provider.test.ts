import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import {
	type FakeComfyUi,
	type FakeComfyUiOptions,
	startFakeComfyUi,
} from "../../testing/fakes/comfyui";
import { readMultipart } from "../../testing/fakes/fake-server";
import {
	catchProviderError,
	checkUntilDone,
	createTestImage,
	createTestInput,
	expectCompleted,
	readImages,
	readImagesFromReference,
	startTestJob,
} from "../../testing/provider-kit";
import {
	type ComfyUiProvider,
	type ComfyUiProviderOptions,
	createComfyUiProvider,
} from "./comfyui-provider";
import { checkSeed } from "./comfyui-seed";
import {
	type ComfyUiBindings,
	type ComfyWorkflow,
	DEFAULT_IMAGE_WORKFLOW,
	DEFAULT_UPSCALE_WORKFLOW,
	DEFAULT_WORKFLOW,
	parseInputRef,
	parseWorkflowText,
} from "./comfyui-workflow";

const NEVER = 3_600_000;

async function startFake(options: FakeComfyUiOptions = {}): Promise<FakeComfyUi> {
	const fake = await startFakeComfyUi({
		...options,
		behaviour: { pendingMs: 0, runningMs: 0, ...options.behaviour },
	});
	onTestFinished(() => fake.stop());
	return fake;
}

function createProvider(
	fake: FakeComfyUi,
	overrides: Partial<ComfyUiProviderOptions> = {},
): ComfyUiProvider {
	return createComfyUiProvider({ url: fake.origin, requestTimeoutMs: 5_000, ...overrides });
}

/** A queued workflow without the saved files' name prefix, which is unique to every job. */
function withoutFilenamePrefix(workflow: ComfyWorkflow): ComfyWorkflow {
	const copy = structuredClone(workflow);
	for (const node of Object.values(copy)) delete node.inputs.filename_prefix;
	return copy;
}

function lastWorkflow(fake: FakeComfyUi) {
	const workflow = fake.submittedWorkflows().at(-1);
	if (!workflow) throw new Error("nothing was queued");
	return workflow;
}

// A Flux-style workflow with its own node ids, to prove the bindings are followed.
const FLUX_WORKFLOW: ComfyWorkflow = {
	"10": {
		class_type: "CheckpointLoaderSimple",
		inputs: { ckpt_name: "sd_xl_base_1.0.safetensors" },
	},
	"11": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["10", 1] } },
	"12": { class_type: "EmptySD3LatentImage", inputs: { width: 1024, height: 1024, batch_size: 1 } },
	"13": {
		class_type: "KSampler",
		inputs: {
			seed: 1,
			steps: 4,
			cfg: 1,
			sampler_name: "euler",
			scheduler: "simple",
			denoise: 1,
			model: ["10", 0],
			positive: ["11", 0],
			negative: ["11", 0],
			latent_image: ["12", 0],
		},
	},
	"14": { class_type: "VAEDecode", inputs: { samples: ["13", 0], vae: ["10", 2] } },
	"15": { class_type: "SaveImage", inputs: { filename_prefix: "flux", images: ["14", 0] } },
};

// The shipped graph plus a text output, as ComfyUI runs it even when the image branch is refused.
const WITH_TEXT_OUTPUT: ComfyWorkflow = {
	...DEFAULT_WORKFLOW,
	"20": { class_type: "PrimitiveStringMultiline", inputs: { value: "a caption" } },
	"21": { class_type: "PreviewAny", inputs: { source: ["20", 0] } },
};

// The shipped graph plus a second image output whose branch links to a node that is not there.
const WITH_BROKEN_SECOND_IMAGE: ComfyWorkflow = {
	...DEFAULT_WORKFLOW,
	"30": { class_type: "VAEDecode", inputs: { samples: ["99", 0], vae: ["4", 2] } },
	"31": { class_type: "SaveImage", inputs: { filename_prefix: "second", images: ["30", 0] } },
};

// A workflow built on an API node whose seed stops at 2^31 - 1 (IdeogramV1 in ComfyUI 0.3.64).
const IDEOGRAM_WORKFLOW: ComfyWorkflow = {
	"1": { class_type: "EmptyImage", inputs: { width: 512, height: 512, batch_size: 1, color: 0 } },
	"2": { class_type: "IdeogramV1", inputs: { prompt: "", turbo: false, seed: 0, num_images: 1 } },
	"3": { class_type: "SaveImage", inputs: { filename_prefix: "ideogram", images: ["2", 0] } },
};
const IDEOGRAM_BINDINGS: ComfyUiBindings = {
	prompt: { node: "2", input: "prompt" },
	width: { node: "1", input: "width" },
	height: { node: "1", input: "height" },
	batch: null,
	seed: { node: "2", input: "seed" },
	negativePrompt: null,
};

function fluxBindings(batch: ComfyUiBindings["batch"]): ComfyUiBindings {
	return {
		prompt: { node: "11", input: "text" },
		width: { node: "12", input: "width" },
		height: { node: "12", input: "height" },
		batch,
		seed: { node: "13", input: "seed" },
		negativePrompt: null,
	};
}

describe("comfyui provider: the default workflow", () => {
	it("queues the workflow with prompt, size, batch of four and a random seed, then reads four images from /view", async () => {
		const fake = await startFake({ behaviour: { pendingMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { prompt: "A red fox in the snow" });

		const workflow = lastWorkflow(fake);
		expect(workflow["6"]?.inputs.text).toBe("A red fox in the snow");
		expect(workflow["7"]?.inputs.text).toBe("text, watermark");
		expect(workflow["5"]?.inputs).toMatchObject({ width: 896, height: 504, batch_size: 4 });
		expect(workflow["3"]?.inputs.seed).toEqual(expect.any(Number));
		expect(workflow["3"]?.inputs.seed).not.toBe(DEFAULT_WORKFLOW["3"]?.inputs.seed);
		expect(workflow["9"]?.inputs.filename_prefix).toMatch(/^atelier\/[0-9a-f]{12}$/);
		const queued = fake.requests().find((request) => request.path === "/prompt");
		expect(queued?.body).toMatchObject({ client_id: expect.any(String) });

		await expect(provider.check(job)).resolves.toEqual({ status: "running" });
		fake.setBehaviour({ pendingMs: 0, runningMs: NEVER });
		await expect(provider.check(job)).resolves.toEqual({ status: "running" });
		fake.setBehaviour({ runningMs: 0 });
		const images = expectCompleted(await provider.check(job));
		expect(images.every((image) => image.kind === "bytes")).toBe(true);
		expect(await readImages(provider, images)).toEqual(
			Array(4).fill({ width: 896, height: 504, format: "png" }),
		);
		expect(fake.requests().filter((request) => request.path === "/view")).toHaveLength(4);
	});

	it("draws a fresh seed for every job, so ComfyUI never answers from its cache", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		await provider.start(createTestInput());
		await provider.start(createTestInput());
		const [first, second] = fake.submittedWorkflows();
		expect(first?.["3"]?.inputs.seed).not.toBe(second?.["3"]?.inputs.seed);
		expect(first?.["9"]?.inputs.filename_prefix).not.toBe(second?.["9"]?.inputs.filename_prefix);
	});

	it("uses the chosen size set and checkpoint", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			sizes: "1mp",
			checkpoint: "sd_xl_base_1.0.safetensors",
		});
		const job = await startTestJob(provider, { aspectRatio: "--ar 21:9", count: 1 });
		expect(lastWorkflow(fake)["5"]?.inputs).toMatchObject({ width: 1536, height: 640 });
		expect(lastWorkflow(fake)["4"]?.inputs.ckpt_name).toBe("sd_xl_base_1.0.safetensors");
		const images = expectCompleted(await provider.check(job));
		expect(await readImages(provider, images)).toEqual([
			{ width: 1536, height: 640, format: "png" },
		]);
	});

	it("resumes the same prompt from its saved id in a fresh provider, without queueing again", async () => {
		const fake = await startFake();
		const job = await startTestJob(createProvider(fake));
		expect(expectCompleted(await createProvider(fake).check(job))).toHaveLength(4);
		expect(fake.submittedWorkflows()).toHaveLength(1);
		expect(JSON.parse(job.jobId)).toEqual({ provider: "comfyui", promptIds: [expect.any(String)] });
	});

	it("answers under a reverse proxy's path prefix", async () => {
		const fake = await startFake();
		const provider = createComfyUiProvider({ url: `${fake.origin}/api` });
		expect(expectCompleted(await provider.check(await startTestJob(provider)))).toHaveLength(4);
		expect(fake.requests().every((request) => request.path.startsWith("/api/"))).toBe(true);
	});
});

describe("comfyui provider: your own workflow", () => {
	it("follows the bindings of a custom workflow", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: FLUX_WORKFLOW,
			bindings: fluxBindings({ node: "12", input: "batch_size" }),
			sizes: "1mp-exact",
		});
		const job = await startTestJob(provider, { aspectRatio: "--ar 3:2" });
		const workflow = lastWorkflow(fake);
		expect(workflow["11"]?.inputs.text).toBe("An hourglass on a study desk, steampunk");
		expect(workflow["12"]?.inputs).toEqual({ width: 1248, height: 832, batch_size: 4 });
		expect(workflow["15"]?.inputs.filename_prefix).toMatch(/^atelier\//);
		expect(await readImages(provider, expectCompleted(await provider.check(job)))).toEqual(
			Array(4).fill({ width: 1248, height: 832, format: "png" }),
		);
	});

	it("queues one prompt per image, each with its own seed, when the workflow has no batch input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: FLUX_WORKFLOW,
			bindings: fluxBindings(null),
		});
		const job = await startTestJob(provider);
		const seeds = fake.submittedWorkflows().map((workflow) => workflow["13"]?.inputs.seed);
		expect(seeds).toHaveLength(4);
		expect(new Set(seeds).size).toBe(4);
		expect(JSON.parse(job.jobId).promptIds).toHaveLength(4);
		expect(expectCompleted(await provider.check(job))).toHaveLength(4);
	});

	it("refuses at boot bindings that do not fit the workflow, naming the variables", () => {
		expect(() =>
			createComfyUiProvider({
				url: "http://127.0.0.1:8188",
				workflow: FLUX_WORKFLOW,
				bindings: {
					...fluxBindings(null),
					prompt: { node: "6", input: "text" },
					width: { node: "12", input: "w" },
					seed: { node: "13", input: "model" },
				},
			}),
		).toThrow(
			/COMFYUI_PROMPT_INPUT: 6\.text: the workflow has no node "6"[\s\S]*COMFYUI_WIDTH_INPUT: 12\.w: node "12" \(EmptySD3LatentImage\) has no input "w"[\s\S]*COMFYUI_SEED_INPUT: 13\.model: that input is linked/,
		);
	});

	it("reads workflow files in API format and explains the UI format", () => {
		expect(parseWorkflowText(JSON.stringify(FLUX_WORKFLOW), "flux.json")).toEqual(FLUX_WORKFLOW);
		expect(() => parseWorkflowText('{"nodes": [], "links": []}', "ui.json")).toThrow(
			/UI format; export it with "Save \(API format\)"/,
		);
		expect(() => parseWorkflowText("{nope", "bad.json")).toThrow(/is not JSON/);
		expect(() => parseWorkflowText('{"3": {"inputs": {}}}', "odd.json")).toThrow(
			/not an API-format workflow/,
		);
		expect(parseInputRef(" 6.text ")).toEqual({ node: "6", input: "text" });
		expect(parseInputRef("6")).toBeUndefined();
	});
});

describe("comfyui provider: outcomes and cancel", () => {
	it("refuses a workflow ComfyUI rejects, showing which node and why, without retry", async () => {
		const fake = await startFake({ behaviour: { checkpoints: ["flux1-schnell.safetensors"] } });
		const error = await catchProviderError(createProvider(fake).start(createTestInput()));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toMatch(
			/^ComfyUI refused the workflow: node 4 \(CheckpointLoaderSimple\): Value not in list: ckpt_name: 'v1-5-pruned-emaonly.safetensors' not in/,
		);
	});

	it("refuses a workflow whose image outputs ComfyUI all cut off, though it answered 200, and takes it off the queue", async () => {
		const fake = await startFake({
			behaviour: { checkpoints: ["flux1-schnell.safetensors"], pendingMs: NEVER },
		});
		const provider = createProvider(fake, { workflow: WITH_TEXT_OUTPUT });
		const error = await catchProviderError(provider.start(createTestInput()));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toMatch(
			/^ComfyUI refused the workflow: node 4 \(CheckpointLoaderSimple\): Value not in list: ckpt_name: 'v1-5-pruned-emaonly.safetensors' not in/,
		);
		const queued = fake.requests().find((request) => request.path === "/prompt");
		expect(queued).toBeDefined();
		expect(fake.requests().at(-1)).toMatchObject({
			method: "POST",
			path: "/queue",
			body: { delete: [expect.any(String)] },
		});
		const queue = await (await fetch(`${fake.origin}/queue`)).json();
		expect(queue).toEqual({ queue_running: [], queue_pending: [] });
	});

	it("goes on with the image outputs ComfyUI kept, logging the ones it cut off", async () => {
		const fake = await startFake();
		const warnings: { message: string; fields: unknown }[] = [];
		const provider = createProvider(fake, {
			workflow: WITH_BROKEN_SECOND_IMAGE,
			logger: { warn: (message, fields) => warnings.push({ message, fields }) },
		});
		const job = await startTestJob(provider);
		expect(await readImages(provider, expectCompleted(await provider.check(job)))).toEqual(
			Array(4).fill({ width: 896, height: 504, format: "png" }),
		);
		expect(warnings).toEqual([
			{
				message: expect.stringMatching(/ComfyUI runs the workflow without some of its outputs/),
				fields: expect.objectContaining({
					problems: ["node 30 (VAEDecode): Required input is missing: samples"],
				}),
			},
		]);
	});

	it("reports an execution error as Generation failed, with ComfyUI's exception for the log", async () => {
		const fake = await startFake({ behaviour: { outcome: "error" } });
		const provider = createProvider(fake);
		await expect(provider.check(await startTestJob(provider))).resolves.toEqual({
			status: "failed",
			message: "Generation failed",
			reason: expect.stringMatching(
				/node 3 \(KSampler\) raised torch.OutOfMemoryError: Allocation/,
			),
		});
	});

	it("deletes a queued prompt and interrupts a running one", async () => {
		const fake = await startFake({ behaviour: { pendingMs: NEVER } });
		const provider = createProvider(fake);
		const queued = await startTestJob(provider);
		await provider.cancel?.(queued);
		const promptId = JSON.parse(queued.jobId).promptIds[0];
		expect(fake.requests().at(-1)).toMatchObject({
			method: "POST",
			path: "/queue",
			body: { delete: [promptId] },
		});
		await expect(provider.check(queued)).resolves.toMatchObject({
			status: "failed",
			message: "The image service no longer knows this generation",
		});

		fake.setBehaviour({ pendingMs: 0, runningMs: NEVER });
		const running = await startTestJob(provider);
		await provider.cancel?.(running);
		expect(fake.requests().at(-1)).toMatchObject({
			method: "POST",
			path: "/interrupt",
			body: { prompt_id: JSON.parse(running.jobId).promptIds[0] },
		});
		await expect(provider.check(running)).resolves.toMatchObject({
			status: "failed",
			message: "The generation was cancelled at the image service",
		});
	});

	it("never interrupts a prompt that is not ours", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const ours = await startTestJob(provider);
		await checkUntilDone(provider, ours);
		fake.setBehaviour({ runningMs: NEVER });
		const other = await startTestJob(provider);
		await expect(provider.check(other)).resolves.toEqual({ status: "running" });
		await provider.cancel?.(ours);
		expect(fake.requests().some((request) => request.path === "/interrupt")).toBe(false);
		await expect(provider.check(other)).resolves.toEqual({ status: "running" });
	});

	it("fails with a clear message when ComfyUI restarted and forgot the prompt", async () => {
		const fake = await startFake({ behaviour: { pendingMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.restart();
		await expect(provider.check(job)).resolves.toEqual({
			status: "failed",
			message: "The image service no longer knows this generation",
			reason: expect.stringMatching(/neither in its queue nor in its history/),
		});
	});

	it("fails without retry when the images were deleted from ComfyUI's disk", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail("view", "not-found");
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toBe(
			"The images expired at the image service before they could be saved",
		);
	});
});

describe("comfyui provider: seeds within the workflow's limits", () => {
	it("draws every seed within the limit /object_info gives the seed node, read once", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: IDEOGRAM_WORKFLOW,
			bindings: IDEOGRAM_BINDINGS,
		});
		for (let round = 0; round < 5; round++) {
			const job = await startTestJob(provider);
			expect(expectCompleted(await provider.check(job))).toHaveLength(4);
		}
		const seeds = fake.submittedWorkflows().map((workflow) => workflow["2"]?.inputs.seed);
		expect(seeds).toHaveLength(20);
		for (const seed of seeds) {
			expect(seed).toEqual(expect.any(Number));
			expect(Number(seed)).toBeGreaterThanOrEqual(0);
			expect(Number(seed)).toBeLessThanOrEqual(2_147_483_647);
		}
		expect(new Set(seeds).size).toBe(20);
		const reads = fake.requests().filter((request) => request.path.startsWith("/object_info"));
		expect(reads.map((request) => request.path)).toEqual(["/object_info/IdeogramV1"]);
	});

	it("keeps the default workflow's seeds below 2^48, the sampler allowing 64 bits", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		await provider.start(createTestInput());
		const seed = Number(lastWorkflow(fake)["3"]?.inputs.seed);
		expect(Number.isSafeInteger(seed)).toBe(true);
		expect(seed).toBeLessThan(2 ** 48);
		await expect(provider.validateSeed(2 ** 48 - 1)).resolves.toEqual({
			ok: true,
			seed: 2 ** 48 - 1,
		});
	});

	it("draws below 2^48 as before from a ComfyUI that does not answer /object_info", async () => {
		const fake = await startFake();
		fake.fail("object_info", "not-found");
		const provider = createProvider(fake);
		expect(expectCompleted(await provider.check(await startTestJob(provider)))).toHaveLength(4);
		expect(Number(lastWorkflow(fake)["3"]?.inputs.seed)).toBeLessThan(2 ** 48);
	});

	it("checks a person's seed against the seed node's limits, naming the field", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: IDEOGRAM_WORKFLOW,
			bindings: IDEOGRAM_BINDINGS,
		});
		await expect(provider.validateSeed(2_147_483_647)).resolves.toEqual({
			ok: true,
			seed: 2_147_483_647,
		});
		await expect(provider.validateSeed(1_099_511_627_776)).resolves.toEqual({
			ok: false,
			field: "seed",
			message: "seed must be a whole number from 0 to 2147483647 for this model",
		});
	});

	it("refuses seeds that are not whole numbers within the limits", () => {
		const limits = { min: 0, max: 4_294_967_294 };
		expect(checkSeed(0, limits)).toEqual({ ok: true, seed: 0 });
		expect(checkSeed(4_294_967_294, limits)).toEqual({ ok: true, seed: 4_294_967_294 });
		const refused = {
			ok: false,
			field: "seed",
			message: "seed must be a whole number from 0 to 4294967294 for this model",
		};
		for (const seed of [4_294_967_295, -1, 1.5, "12", null, Number.NaN, 2 ** 64]) {
			expect(checkSeed(seed, limits)).toEqual(refused);
		}
	});
});

describe("comfyui provider: the generation's settings", () => {
	it("offers a seed, and a negative prompt where an input is bound to one", async () => {
		const fake = await startFake();
		expect(createProvider(fake).capabilities).toEqual({
			seed: true,
			negativePrompt: true,
			qualities: [],
			maxCount: 4,
			textToImage: true,
			imageInput: false,
			referenceStrength: false,
			upscaleFactors: [],
			upscaleResamples: false,
			// Without an inpaint workflow, region edits are not offered.
			mask: false,
			outpaint: false,
		});
		const withoutNegative = createProvider(fake, {
			workflow: FLUX_WORKFLOW,
			bindings: fluxBindings(null),
		});
		expect(withoutNegative.capabilities).toMatchObject({ seed: true, negativePrompt: false });
	});

	it("writes the seed, the negative prompt and the count into the bound inputs", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider, {
			seed: 4_294_967_295,
			negativePrompt: "blurry, text",
			count: 2,
		});
		const workflow = lastWorkflow(fake);
		expect(workflow["3"]?.inputs.seed).toBe(4_294_967_295);
		expect(workflow["7"]?.inputs.text).toBe("blurry, text");
		expect(workflow["6"]?.inputs.text).toBe("An hourglass on a study desk, steampunk");
		expect(workflow["5"]?.inputs.batch_size).toBe(2);
		expect(expectCompleted(await provider.check(job))).toHaveLength(2);
	});

	it("sends the same workflow for the same seed and settings, so ComfyUI makes the same images", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const settings = { seed: 1234, negativePrompt: "fog", count: 3 };
		await provider.start(createTestInput(settings));
		await provider.start(createTestInput(settings));
		await provider.start(createTestInput({ ...settings, seed: 1235 }));
		// Only the saved files' name prefix differs, so the two jobs' images never mix.
		const [first, second, other] = fake.submittedWorkflows().map(withoutFilenamePrefix);
		expect(second).toEqual(first);
		expect(other).not.toEqual(first);
		expect(first?.["3"]?.inputs.seed).toBe(1234);
	});

	it("gives each prompt the seed plus its index when the workflow has no batch input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: FLUX_WORKFLOW,
			bindings: fluxBindings(null),
		});
		await startTestJob(provider, { seed: 10, count: 3 });
		await startTestJob(provider, { seed: 10, count: 3 });
		const seeds = fake.submittedWorkflows().map((workflow) => workflow["13"]?.inputs.seed);
		expect(seeds).toEqual([10, 11, 12, 10, 11, 12]);
	});

	it("wraps the seeds of later prompts round within the seed input's limits", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: IDEOGRAM_WORKFLOW,
			bindings: IDEOGRAM_BINDINGS,
		});
		const job = await startTestJob(provider, { seed: 2_147_483_646, count: 3 });
		const seeds = fake.submittedWorkflows().map((workflow) => workflow["2"]?.inputs.seed);
		expect(seeds).toEqual([2_147_483_646, 2_147_483_647, 0]);
		expect(expectCompleted(await provider.check(job))).toHaveLength(3);
	});

	it("answers a seed outside the seed input's limits before anything is queued, naming the field", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: IDEOGRAM_WORKFLOW,
			bindings: IDEOGRAM_BINDINGS,
		});
		await expect(provider.checkInput?.(createTestInput({ seed: 2_147_483_648 }))).resolves.toEqual({
			field: "seed",
			message: "seed must be a whole number from 0 to 2147483647 for this model",
		});
		await expect(provider.checkInput?.(createTestInput({ seed: 2_147_483_647 }))).resolves.toBe(
			null,
		);
		await expect(provider.checkInput?.(createTestInput({ seed: null }))).resolves.toBe(null);
		expect(fake.submittedWorkflows()).toHaveLength(0);
		// Had ComfyUI been out of reach at creation, the prompt is refused with the same words.
		const error = await catchProviderError(provider.start(createTestInput({ seed: 2 ** 32 - 1 })));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toBe(
			"seed must be a whole number from 0 to 2147483647 for this model",
		);
	});

	it("draws random seeds the seed input accepts, and guesses cautiously when ComfyUI is down", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			workflow: IDEOGRAM_WORKFLOW,
			bindings: IDEOGRAM_BINDINGS,
		});
		for (let draw = 0; draw < 20; draw++) {
			const seed = await provider.randomSeed?.();
			expect(seed).toBeGreaterThanOrEqual(0);
			expect(seed).toBeLessThanOrEqual(2_147_483_647);
		}
		const stock = createProvider(fake);
		await expect(stock.randomSeed?.()).resolves.toBeLessThanOrEqual(4_294_967_295);

		await fake.goOffline();
		const unreachable = createProvider(fake);
		await expect(unreachable.randomSeed?.()).resolves.toBeLessThanOrEqual(2_147_483_647);
		await expect(unreachable.checkInput?.(createTestInput({ seed: 5 }))).resolves.toBe(null);
	});
});

describe("comfyui provider: HTTP failures and the proxy header", () => {
	it.each([
		["server-error", true],
		["rate-limited", true],
		["bad-json", false],
		["malformed", false],
		["drop", true],
	] as const)("maps a /prompt answering %s (retryable: %s)", async (kind, retryable) => {
		const fake = await startFake({ behaviour: { retryAfterSeconds: 7 } });
		fake.fail("prompt", kind);
		const error = await catchProviderError(createProvider(fake).start(createTestInput()));
		expect(error.retryable).toBe(retryable);
		if (kind === "rate-limited") expect(error.retryAfterMs).toBe(7_000);
	});

	it.each([
		["history", "server-error"],
		["history", "bad-json"],
		["history", "malformed"],
		["queue", "malformed"],
		["queue", "rate-limited"],
		["view", "server-error"],
	] as const)("retries a %s poll answering %s", async (endpoint, kind) => {
		const fake = await startFake({ behaviour: { pendingMs: endpoint === "queue" ? NEVER : 0 } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail(endpoint, kind, { times: 1 });
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(true);
	});

	it("times out a ComfyUI that stops answering, and retries one that is down", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { requestTimeoutMs: 200 });
		const job = await startTestJob(provider);
		fake.fail("history", "hang");
		expect((await catchProviderError(provider.check(job))).message).toMatch(/timed out/);
		await fake.stop();
		const down = await catchProviderError(provider.start(createTestInput()));
		expect(down.retryable).toBe(true);
		expect(down.message).toMatch(/ECONNREFUSED/);
	});

	it("marks a ComfyUI it cannot connect to as unreachable, to be tried until the timeout", async () => {
		const fake = await startFake({ behaviour: { runningMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await fake.goOffline();
		// The first request may still go out on a kept-alive connection closed as ComfyUI went away.
		const first = await catchProviderError(provider.check(job));
		const down = first.isUnreachable ? first : await catchProviderError(provider.check(job));
		expect(down).toMatchObject({ retryable: true, isUnreachable: true });
		expect(down.message).toMatch(/ECONNREFUSED/);
		await fake.comeBack();
		await expect(provider.check(job)).resolves.toEqual({ status: "running" });
	});

	it("takes a proxy's 502 while reading for the ComfyUI behind it being down", async () => {
		const fake = await startFake({ behaviour: { runningMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail("history", "bad-gateway");
		const down = await catchProviderError(provider.check(job));
		expect(down).toMatchObject({ retryable: true, isUnreachable: true });
	});

	it("does not take a crash answered by ComfyUI itself for an outage", async () => {
		const fake = await startFake({ behaviour: { runningMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail("history", "server-error");
		const crashed = await catchProviderError(provider.check(job));
		expect(crashed).toMatchObject({ retryable: true, isUnreachable: false });
	});

	it("sends the proxy header with every request, /view included", async () => {
		const authHeader = { name: "X-Proxy-Key", value: "let-me-in" };
		const fake = await startFake({ behaviour: { authHeader } });
		const refused = await catchProviderError(createProvider(fake).start(createTestInput()));
		expect(refused.retryable).toBe(false);
		expect(refused.userMessage).toBe("The image service did not accept Atelier's credentials");

		const provider = createProvider(fake, { authHeader });
		expect(expectCompleted(await provider.check(await startTestJob(provider)))).toHaveLength(4);
		const sent = fake.requests().slice(1);
		expect(sent.map((request) => request.headers["x-proxy-key"])).toEqual(
			Array(sent.length).fill("let-me-in"),
		);
		expect(sent.filter((request) => request.path === "/view")).toHaveLength(4);
	});
});

describe("the ComfyUI fake answers as ComfyUI 0.3.64 does", () => {
	const QueuedSchema = z.object({
		prompt_id: z.string(),
		number: z.number(),
		node_errors: z.object({}),
	});

	async function queue(fake: FakeComfyUi, body: unknown) {
		const response = await fetch(`${fake.origin}/prompt`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(body),
		});
		return { status: response.status, body: await response.json() };
	}

	it("numbers prompts from 0, takes any string as prompt_id and sizes that are not multiples of 8", async () => {
		const fake = await startFake();
		const graph = structuredClone(DEFAULT_WORKFLOW);
		const latent = graph["5"];
		if (latent) latent.inputs = { width: 500, height: 333, batch_size: 1 };
		const first = await queue(fake, { prompt: graph, prompt_id: "my own id" });
		expect(first.status).toBe(200);
		expect(QueuedSchema.parse(first.body)).toEqual({
			prompt_id: "my own id",
			number: 0,
			node_errors: {},
		});
		const second = await queue(fake, { prompt: graph });
		expect(QueuedSchema.parse(second.body).number).toBe(1);
	});

	it("lists each node's seed limits in /object_info and refuses a seed above them", async () => {
		const fake = await startFake();
		const InfoSchema = z.record(
			z.string(),
			z.object({
				input: z.object({
					optional: z.object({
						seed: z.tuple([z.string(), z.object({ max: z.number() }).loose()]),
					}),
				}),
			}),
		);
		const info = InfoSchema.parse(
			await (await fetch(`${fake.origin}/object_info/IdeogramV1`)).json(),
		);
		expect(info.IdeogramV1?.input.optional.seed).toEqual([
			"INT",
			expect.objectContaining({ min: 0, max: 2_147_483_647 }),
		]);
		const graph = structuredClone(IDEOGRAM_WORKFLOW);
		const ideogram = graph["2"];
		if (ideogram) ideogram.inputs.seed = 1_099_511_627_776;
		const refused = await queue(fake, { prompt: graph });
		expect(refused).toMatchObject({
			status: 400,
			body: {
				node_errors: {
					"2": {
						errors: [
							{
								type: "value_bigger_than_max",
								message: "Value 1099511627776 bigger than max of 2147483647",
								details: "seed",
							},
						],
					},
				},
			},
		});
	});
});

describe("comfyui provider: images made from an image", () => {
	function createImageProvider(fake: FakeComfyUi): ComfyUiProvider {
		return createProvider(fake, {
			imageWorkflow: DEFAULT_IMAGE_WORKFLOW,
			upscaleWorkflow: DEFAULT_UPSCALE_WORKFLOW,
		});
	}

	it("offers image input with an image-to-image workflow and the upscale workflow's factors", async () => {
		const fake = await startFake();
		expect(createImageProvider(fake).capabilities).toMatchObject({
			textToImage: true,
			imageInput: true,
			// The image workflow's denoise is the strength.
			referenceStrength: true,
			upscaleFactors: [2, 4],
			// The shipped upscale workflow is ImageScaleBy (Lanczos): a resample.
			upscaleResamples: true,
		});
		const twice = createProvider(fake, {
			upscaleWorkflow: { ...DEFAULT_UPSCALE_WORKFLOW, factors: [2] },
		});
		expect(twice.capabilities).toMatchObject({
			imageInput: false,
			referenceStrength: false,
			upscaleFactors: [2],
		});
		// One's own upscale workflow (an upscale model, say) is not taken for a resample.
		const ownUpscaler = createProvider(fake, {
			upscaleWorkflow: {
				...DEFAULT_UPSCALE_WORKFLOW,
				workflow: structuredClone(DEFAULT_UPSCALE_WORKFLOW.workflow),
			},
		});
		expect(ownUpscaler.capabilities).toMatchObject({
			upscaleFactors: [2, 4],
			upscaleResamples: false,
		});
	});

	it("uploads the reference, names it in the LoadImage node, sets denoise from the strength, and makes the images from it", async () => {
		const fake = await startFake();
		const provider = createImageProvider(fake);
		const reference = await createTestImage({ width: 96, height: 64 });
		const job = await startTestJob(provider, {
			seed: 42,
			negativePrompt: "blurry",
			count: 2,
			image: { kind: "reference", image: reference, strength: 0.35 },
		});

		const [upload, queued] = fake
			.requests()
			.filter((request) => request.method === "POST")
			.map((request) => request.path);
		expect([upload, queued]).toEqual(["/upload/image", "/prompt"]);
		const uploadRequest = fake.requests().find((request) => request.path === "/upload/image");
		const form = uploadRequest ? await readMultipart(uploadRequest) : undefined;
		const file = form?.get("image");
		if (!(file instanceof File)) throw new Error("no image file was uploaded");
		expect(new Uint8Array(await file.arrayBuffer())).toEqual(reference.data);
		expect([form?.get("type"), form?.get("overwrite")]).toEqual(["input", "true"]);
		const [stored] = fake.inputFiles();
		expect(stored).toMatch(/^atelier\/atelier-[0-9a-f]+\.png$/);

		const graph = lastWorkflow(fake);
		expect(graph["10"]?.inputs.image).toBe(stored);
		expect(graph["3"]?.inputs).toMatchObject({ denoise: 0.35, seed: 42 });
		expect(graph["6"]?.inputs.text).toBe("An hourglass on a study desk, steampunk");
		expect(graph["7"]?.inputs.text).toBe("blurry");
		// The reference is scaled to the ratio's size, and the latent repeated for the count.
		expect(graph["11"]?.inputs).toMatchObject({ width: 896, height: 504 });
		expect(graph["13"]?.inputs.amount).toBe(2);

		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual(
			Array(2).fill({ width: 896, height: 504, isFromReference: true }),
		);
	});

	it("upscales through the upscale workflow: the uploaded image scaled by the factor, one image", async () => {
		const fake = await startFake();
		const provider = createImageProvider(fake);
		const reference = await createTestImage({ width: 96, height: 64 });
		const job = await startTestJob(provider, {
			count: 1,
			image: { kind: "upscale", image: reference, factor: 4 },
		});
		const graph = lastWorkflow(fake);
		expect(graph["1"]?.inputs.image).toBe(fake.inputFiles()[0]);
		expect(graph["2"]?.inputs.scale_by).toBe(4);
		expect(fake.submittedWorkflows()).toHaveLength(1);

		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual([
			{ width: 384, height: 256, isFromReference: true },
		]);
	});

	it("queues one prompt per image, each with its own seed, when the workflow has no batch input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			imageWorkflow: {
				workflow: DEFAULT_IMAGE_WORKFLOW.workflow,
				bindings: { ...DEFAULT_IMAGE_WORKFLOW.bindings, batch: null },
			},
		});
		const job = await startTestJob(provider, {
			seed: 7,
			count: 2,
			image: { kind: "reference", image: await createTestImage(), strength: 0.7 },
		});
		expect(fake.submittedWorkflows().map((graph) => graph["3"]?.inputs.seed)).toEqual([7, 8]);
		// The same file, named by its content, is uploaded over itself.
		expect(fake.inputFiles()).toHaveLength(1);
		expect(expectCompleted(await checkUntilDone(provider, job))).toHaveLength(2);
	});

	it("refuses, naming the binding, an image workflow without the node it maps", () => {
		const workflow = structuredClone(DEFAULT_IMAGE_WORKFLOW.workflow);
		delete workflow["10"];
		expect(() =>
			createComfyUiProvider({
				url: "http://127.0.0.1:1",
				imageWorkflow: { workflow, bindings: DEFAULT_IMAGE_WORKFLOW.bindings },
			}),
		).toThrow(/imageWorkflow\.inputs\.image: 10\.image: the workflow has no node "10"/);
	});

	it("refuses, naming the binding, an image bound anywhere but a LoadImage node", () => {
		// The reference is uploaded and its name written into the bound input: only LoadImage reads it.
		const image = {
			workflow: DEFAULT_IMAGE_WORKFLOW.workflow,
			bindings: { ...DEFAULT_IMAGE_WORKFLOW.bindings, image: { node: "6", input: "text" } },
		};
		const upscale = {
			...DEFAULT_UPSCALE_WORKFLOW,
			bindings: { ...DEFAULT_UPSCALE_WORKFLOW.bindings, image: { node: "2", input: "scale_by" } },
		};
		expect(() =>
			createComfyUiProvider({
				url: "http://127.0.0.1:1",
				imageWorkflow: image,
				upscaleWorkflow: upscale,
			}),
		).toThrow(
			/imageWorkflow\.inputs\.image: 6\.text: node "6" \(CLIPTextEncode\) is not a LoadImage node; the image is uploaded to ComfyUI and named in a LoadImage node's input[\s\S]*upscaleWorkflow\.inputs\.image: 2\.scale_by: node "2" \(ImageScaleBy\) is not a LoadImage node/,
		);
		// A LoadImage node of one's own (another id) is taken.
		const renumbered = structuredClone(DEFAULT_IMAGE_WORKFLOW.workflow);
		renumbered["20"] = structuredClone(renumbered["10"] ?? { class_type: "", inputs: {} });
		expect(() =>
			createComfyUiProvider({
				url: "http://127.0.0.1:1",
				imageWorkflow: {
					workflow: renumbered,
					bindings: { ...DEFAULT_IMAGE_WORKFLOW.bindings, image: { node: "20", input: "image" } },
				},
			}),
		).not.toThrow();
	});

	it("fails the start when ComfyUI refuses the upload, queueing nothing", async () => {
		const fake = await startFake();
		const provider = createImageProvider(fake);
		fake.fail("upload", "server-error");
		const error = await catchProviderError(
			provider.start(
				createTestInput({
					image: { kind: "reference", image: await createTestImage(), strength: 0.5 },
				}),
			),
		);
		expect(error.retryable).toBe(true);
		expect(fake.submittedWorkflows()).toHaveLength(0);
	});
});
