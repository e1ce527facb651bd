import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import {
	FAKE_REPLICATE_TOKEN,
	type FakeReplicate,
	type FakeReplicateOptions,
	startFakeReplicate,
} from "../../testing/fakes/replicate";
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
import type { ImageProvider } from "../types";
import { createReplicateProvider, type ReplicateProviderOptions } from "./replicate-provider";

const NEVER = 3_600_000;

async function startFake(options: FakeReplicateOptions = {}): Promise<FakeReplicate> {
	const fake = await startFakeReplicate({
		...options,
		behaviour: { startingMs: 0, processingMs: 0, ...options.behaviour },
	});
	onTestFinished(() => fake.stop());
	return fake;
}

function createProvider(
	fake: FakeReplicate,
	overrides: Partial<ReplicateProviderOptions> = {},
): ImageProvider {
	return createReplicateProvider({
		apiToken: FAKE_REPLICATE_TOKEN,
		baseUrl: fake.baseUrl,
		requestTimeoutMs: 5_000,
		...overrides,
	});
}

function apiRequests(fake: FakeReplicate) {
	return fake.requests().filter((request) => request.path.startsWith("/v1/"));
}

describe("replicate provider: the generation's settings", () => {
	it("offers a seed by default, and a negative prompt only where its input is named", async () => {
		const fake = await startFake();
		expect(createProvider(fake).capabilities).toEqual({
			seed: true,
			negativePrompt: false,
			qualities: [],
			maxCount: 4,
			textToImage: true,
			imageInput: false,
			referenceStrength: false,
			upscaleFactors: [],
			upscaleResamples: false,
			mask: false,
			outpaint: false,
		});
		const sdxl = createProvider(fake, { seedInput: null, negativePromptInput: "negative_prompt" });
		expect(sdxl.capabilities).toMatchObject({ seed: false, negativePrompt: true });
	});

	it("sends the seed, the count as num_outputs and the negative prompt in the model's input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { negativePromptInput: "negative_prompt" });
		const job = await startTestJob(provider, {
			seed: 4_294_967_295,
			count: 3,
			negativePrompt: "blurry",
		});
		expect(apiRequests(fake)[0]?.body).toEqual({
			input: {
				prompt: "An hourglass on a study desk, steampunk",
				aspect_ratio: "16:9",
				num_outputs: 3,
				seed: 4_294_967_295,
				negative_prompt: "blurry",
			},
		});
		expect(expectCompleted(await provider.check(job))).toHaveLength(3);
	});

	it("gives each prediction the next seed when the model makes one image at a time", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { imagesPerPrediction: 1, seedInput: "noise_seed" });
		await startTestJob(provider, { seed: 4_294_967_294, count: 3 });
		const inputs = apiRequests(fake).map((request) => request.body);
		expect(inputs).toEqual([
			{ input: expect.objectContaining({ noise_seed: 4_294_967_294 }) },
			{ input: expect.objectContaining({ noise_seed: 4_294_967_295 }) },
			{ input: expect.objectContaining({ noise_seed: 0 }) },
		]);
		expect(inputs.map((body) => JSON.stringify(body))).not.toContain("num_outputs");
	});

	it("sends no seed or negative prompt the generation does not carry, or the model does not take", async () => {
		const fake = await startFake();
		await createProvider(fake, { seedInput: null }).start(createTestInput({ seed: 7 }));
		await createProvider(fake, { negativePromptInput: "negative_prompt" }).start(
			createTestInput({ seed: null, negativePrompt: null }),
		);
		for (const request of apiRequests(fake)) {
			expect(request.body).toEqual({
				input: { prompt: expect.any(String), aspect_ratio: "16:9", num_outputs: 4 },
			});
		}
	});
});

describe("replicate provider: happy path", () => {
	it("creates one flux-schnell prediction of four in the chosen ratio, follows it, and downloads four images", async () => {
		const fake = await startFake({ behaviour: { startingMs: NEVER } });
		const provider = createProvider(fake, { cancelAfterMs: 300_000 });
		const job = await startTestJob(provider, {
			prompt: "A red fox in the snow",
			aspectRatio: "--ar 16:9",
		});

		const [create] = fake.requests();
		expect(create?.method).toBe("POST");
		expect(create?.path).toBe("/v1/models/black-forest-labs/flux-schnell/predictions");
		expect(create?.authorization).toBe(`Bearer ${FAKE_REPLICATE_TOKEN}`);
		expect(create?.headers["cancel-after"]).toBe("5m");
		expect(create?.body).toEqual({
			input: { prompt: "A red fox in the snow", aspect_ratio: "16:9", num_outputs: 4 },
		});
		// Starting: booting a machine or setting the model up, no step yet.
		await expect(provider.check(job)).resolves.toEqual({ status: "running", stage: "starting" });

		fake.setBehaviour({ startingMs: 0, processingMs: NEVER });
		const processing = await provider.check(job);
		// The last tqdm line of its logs: the percent, and the step of the model's four.
		expect(processing).toMatchObject({
			status: "running",
			stage: "running",
			progress: expect.any(Number),
			step: expect.any(Number),
			steps: 4,
		});

		fake.setBehaviour({ processingMs: 0 });
		const images = expectCompleted(await provider.check(job));
		expect(images).toHaveLength(4);
		const read = await readImages(provider, images);
		expect(read).toEqual(Array(4).fill({ width: 1344, height: 768, format: "webp" }));
		const fileRequests = fake.requests().filter((request) => request.path.startsWith("/files/"));
		expect(fileRequests).toHaveLength(4);
		// The token never goes to file URLs.
		expect(fileRequests.map((request) => request.authorization)).toEqual(Array(4).fill(undefined));
	});

	it("maps each of our ratios to Replicate's aspect_ratio", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		for (const aspectRatio of [
			"--ar 1:1",
			"--ar 3:2",
			"--ar 2:3",
			"--ar 9:16",
			"--ar 21:9",
		] as const) {
			await provider.start(createTestInput({ aspectRatio }));
		}
		expect(fake.requests().map((request) => request.body)).toMatchObject([
			{ input: { aspect_ratio: "1:1" } },
			{ input: { aspect_ratio: "3:2" } },
			{ input: { aspect_ratio: "2:3" } },
			{ input: { aspect_ratio: "9:16" } },
			{ input: { aspect_ratio: "21:9" } },
		]);
	});

	it("resumes the same prediction from its saved id in a fresh provider, without creating another", async () => {
		const fake = await startFake();
		const job = await startTestJob(createProvider(fake));
		const afterRestart = createProvider(fake);
		expect(expectCompleted(await afterRestart.check(job))).toHaveLength(4);
		expect(fake.createCount()).toBe(1);
		expect(JSON.parse(job.jobId)).toEqual({
			provider: "replicate",
			predictions: [
				{
					id: expect.any(String),
					get: expect.stringMatching(new RegExp(`^${fake.baseUrl}/predictions/\\w+$`)),
					cancel: expect.stringMatching(new RegExp(`^${fake.baseUrl}/predictions/\\w+/cancel$`)),
				},
			],
		});
	});

	it("creates a version's prediction at /predictions with extra input", async () => {
		const fake = await startFake();
		const version = `someone/flux-fine-tune:${"ab12".repeat(16)}`;
		const provider = createProvider(fake, {
			model: version,
			extraInput: { output_format: "png", prompt: "ignored: ours wins" },
		});
		const images = expectCompleted(await provider.check(await startTestJob(provider)));
		expect(fake.requests()[0]?.path).toBe("/v1/predictions");
		expect(fake.requests()[0]?.body).toEqual({
			version,
			input: {
				output_format: "png",
				prompt: "An hourglass on a study desk, steampunk",
				aspect_ratio: "16:9",
				num_outputs: 4,
			},
		});
		expect((await readImages(provider, images)).map((image) => image.format)).toEqual(
			Array(4).fill("png"),
		);
	});

	it("makes one prediction per image for a model that makes one, and reads a string output", async () => {
		const fake = await startFake({ behaviour: { outputStyle: "string" } });
		const provider = createProvider(fake, { imagesPerPrediction: 1 });
		const job = await startTestJob(provider);
		expect(fake.createCount()).toBe(4);
		for (const request of fake.requests()) {
			expect(request.body).toEqual({
				input: { prompt: "An hourglass on a study desk, steampunk", aspect_ratio: "16:9" },
			});
		}
		const images = expectCompleted(await provider.check(job));
		expect(new Set(images.map((image) => (image.kind === "url" ? image.url : ""))).size).toBe(4);
	});

	it("cancels the predictions already made when a later one cannot be created", async () => {
		const fake = await startFake({ behaviour: { startingMs: NEVER } });
		const provider = createProvider(fake, { imagesPerPrediction: 1 });
		fake.fail("create", "rate-limited", { after: 2 });
		const error = await catchProviderError(provider.start(createTestInput()));
		expect(error.retryable).toBe(true);
		const created = fake
			.requests()
			.filter((request) => request.path.endsWith("/predictions"))
			.map((request) => request.path);
		expect(created).toHaveLength(3);
		const cancelled = fake.requests().filter((request) => request.path.endsWith("/cancel"));
		expect(cancelled).toHaveLength(2);
	});

	it("trusts the API's own host for downloads only when it is on a private network", async () => {
		const fake = await startFake();
		expect(createProvider(fake).trustedPrivateHosts).toEqual([new URL(fake.origin).host]);
		expect(createReplicateProvider({ apiToken: "r8_x" }).trustedPrivateHosts).toEqual([]);
		expect(() => createReplicateProvider({ apiToken: "r8_x", model: "not a model" })).toThrow(
			/REPLICATE_MODEL must be/,
		);
	});
});

describe("replicate provider: progress", () => {
	it("says starting while Replicate starts the prediction, then running with the step its logs show", async () => {
		const fake = await startFake({ behaviour: { startingMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { count: 1 });
		const [prediction] = JSON.parse(job.jobId).predictions;
		// The prediction as Replicate answers it.
		const readPrediction = async () => {
			const response = await fetch(`${fake.baseUrl}/predictions/${prediction.id}`, {
				headers: { authorization: `Bearer ${FAKE_REPLICATE_TOKEN}` },
			});
			return z
				.object({ status: z.string(), logs: z.string(), started_at: z.string().optional() })
				.parse(await response.json());
		};

		expect(await readPrediction()).toEqual({ status: "starting", logs: "" });
		expect(await provider.check(job)).toEqual({ status: "running", stage: "starting" });

		fake.setBehaviour({ startingMs: 0, processingHeldAt: 0.5 });
		expect(await readPrediction()).toMatchObject({
			status: "processing",
			started_at: expect.any(String),
			logs: expect.stringMatching(/ 50%\|.*\| 2\/4 /),
		});
		expect(await provider.check(job)).toEqual({
			status: "running",
			stage: "running",
			progress: 50,
			step: 2,
			steps: 4,
		});

		fake.setBehaviour({ processingHeldAt: null, processingMs: 0 });
		expect((await readPrediction()).status).toBe("succeeded");
		expect(expectCompleted(await provider.check(job))).toHaveLength(1);
	});
});

describe("replicate provider: prediction outcomes", () => {
	it("reports a model failure as Generation failed, keeping Replicate's error for the log", async () => {
		const fake = await startFake({ behaviour: { outcome: "failed" } });
		const provider = createProvider(fake);
		await expect(provider.check(await startTestJob(provider))).resolves.toEqual({
			status: "failed",
			message: "Generation failed",
			reason: expect.stringMatching(/failed: CUDA out of memory/),
		});
	});

	it("reports a safety-checker failure as a refused prompt, without retry", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { prompt: "something forbidden" });
		await expect(provider.check(job)).resolves.toEqual({
			status: "failed",
			message: "The provider refused this prompt",
			reason: expect.stringMatching(/NSFW content detected/),
		});
	});

	it("reports canceled and aborted predictions", async () => {
		const fake = await startFake({ behaviour: { outcome: "canceled" } });
		const provider = createProvider(fake);
		await expect(provider.check(await startTestJob(provider))).resolves.toMatchObject({
			status: "failed",
			message: "The generation was cancelled at the image service",
		});
		fake.setBehaviour({ outcome: "aborted" });
		await expect(provider.check(await startTestJob(provider))).resolves.toMatchObject({
			status: "failed",
			message: "Generation timed out",
			reason: expect.stringMatching(/aborted/),
		});
	});

	it("fails with a clear message when the output was removed before it was saved", async () => {
		const fake = await startFake({ behaviour: { resultTtlMs: 0 } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await new Promise((resolve) => setTimeout(resolve, 5));
		await expect(provider.check(job)).resolves.toEqual({
			status: "failed",
			message: "The images expired at the image service before they could be saved",
			reason: expect.stringMatching(/data_removed: true/),
		});
	});

	it("finds the file URLs gone once the output expires between the poll and the download", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const images = expectCompleted(await provider.check(await startTestJob(provider)));
		fake.setBehaviour({ resultTtlMs: 0 });
		await new Promise((resolve) => setTimeout(resolve, 5));
		const error = await catchProviderError(readImages(provider, images));
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/HTTP 404/);
	});

	it("cancels a running prediction at urls.cancel, with the token", async () => {
		const fake = await startFake({ behaviour: { startingMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await provider.cancel?.(job);
		const cancel = fake.requests().find((request) => request.path.endsWith("/cancel"));
		expect(cancel).toMatchObject({
			method: "POST",
			authorization: `Bearer ${FAKE_REPLICATE_TOKEN}`,
		});
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "failed",
			message: "The generation was cancelled at the image service",
		});
		// Cancelling again (the worker and the delete both may) changes nothing and does not throw.
		await expect(provider.cancel?.(job)).resolves.toBeUndefined();
	});

	it("cancels the other predictions when one of a set fails", async () => {
		const fake = await startFake({ behaviour: { startingMs: NEVER } });
		const provider = createProvider(fake, { imagesPerPrediction: 2 });
		const job = await startTestJob(provider, { prompt: "forbidden fruit" });
		fake.setBehaviour({ startingMs: 0 });
		const state = await checkUntilDone(provider, job);
		expect(state).toMatchObject({ status: "failed", message: "The provider refused this prompt" });
		expect(fake.requests().filter((request) => request.path.endsWith("/cancel"))).toHaveLength(2);
	});
});

describe("replicate provider: HTTP failures", () => {
	it.each([
		["validation", false, "input.prompt: prompt is required"],
		["no-credit", false, "The image service account has no credit left"],
		["rate-limited", true, "The image service is busy. Please try again later."],
		["server-error", true, "Something went wrong"],
		["bad-json", false, "Generation failed"],
		["malformed", false, "Generation failed"],
		["drop", true, "Generation failed"],
	] as const)(
		"maps a create answering %s (retryable: %s)",
		async (kind, retryable, userMessage) => {
			const fake = await startFake({ behaviour: { retryAfterSeconds: 3 } });
			fake.fail("create", kind);
			const error = await catchProviderError(createProvider(fake).start(createTestInput()));
			expect(error.retryable).toBe(retryable);
			expect(error.userMessage).toBe(userMessage);
			if (kind === "rate-limited") expect(error.retryAfterMs).toBe(3_000);
		},
	);

	it("fails without retry when the token is refused", async () => {
		const fake = await startFake();
		const error = await catchProviderError(
			createProvider(fake, { apiToken: "r8_wrong" }).start(createTestInput()),
		);
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toBe("The image service did not accept Atelier's credentials");
		expect(error.message).toMatch(/HTTP 401: You did not pass a valid authentication token/);
	});

	it("times out a create that never answers", async () => {
		const fake = await startFake();
		fake.fail("create", "hang");
		const error = await catchProviderError(
			createProvider(fake, { requestTimeoutMs: 200 }).start(createTestInput()),
		);
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/timed out after 200 ms/);
	});

	it.each([
		["rate-limited", true, "The image service is busy. Please try again later."],
		["server-error", true, "Polling HTTP 503"],
		["bad-json", true, "Generation failed"],
		["malformed", true, "Generation failed"],
		["not-found", false, "The image service no longer knows this generation"],
	] as const)("maps a poll answering %s (retryable: %s)", async (kind, retryable, userMessage) => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail("get", kind, { times: 1 });
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(retryable);
		expect(error.userMessage).toBe(userMessage);
		// The failure was one answer only; the next poll finds the prediction done.
		expect(expectCompleted(await provider.check(job))).toHaveLength(4);
	});

	it("times out a poll that never answers", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { requestTimeoutMs: 200 });
		const job = await startTestJob(provider);
		fake.fail("get", "hang");
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(true);
	});

	it("never sends the token to prediction URLs on another origin", async () => {
		const elsewhere = await startFake();
		const fake = await startFake({ behaviour: { urlOrigin: elsewhere.origin } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await provider.check(job).catch(() => undefined);
		await provider.cancel?.(job).catch(() => undefined);
		expect(elsewhere.requests().map((request) => [request.method, request.authorization])).toEqual([
			["GET", undefined],
			["POST", undefined],
		]);
		expect(apiRequests(fake)).toHaveLength(1);
	});

	it("refuses a job id it did not make", async () => {
		const fake = await startFake();
		const error = await catchProviderError(
			createProvider(fake).check({ jobId: "local_123", input: createTestInput() }),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/Not a job id of the Replicate provider/);
	});
});

describe("replicate provider: images made from an image", () => {
	const CreateBodySchema = z.object({ input: z.record(z.string(), z.unknown()) });

	it("offers image input where the model's image input is named, and text only without", async () => {
		const fake = await startFake();
		expect(createProvider(fake).capabilities).toMatchObject({
			textToImage: true,
			imageInput: false,
			referenceStrength: false,
			upscaleFactors: [],
		});
		const flux = createProvider(fake, {
			imageInputs: { image: "image", strength: "prompt_strength" },
		});
		expect(flux.capabilities).toMatchObject({
			textToImage: true,
			imageInput: true,
			referenceStrength: true,
			upscaleFactors: [],
		});
		// Without a strength input the model decides how far to move from the image.
		const kontext = createProvider(fake, { imageInputs: { image: "input_image" } });
		expect(kontext.capabilities).toMatchObject({ imageInput: true, referenceStrength: false });
	});

	it("sends the reference as a data URI in the named input, with the strength, and the images come from it", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			model: "black-forest-labs/flux-dev",
			imageInputs: { image: "image", strength: "prompt_strength" },
		});
		const reference = await createTestImage();
		const job = await startTestJob(provider, {
			count: 2,
			image: { kind: "reference", image: reference, strength: 0.35 },
		});
		const { input } = CreateBodySchema.parse(apiRequests(fake)[0]?.body);
		expect(input).toMatchObject({
			prompt: "An hourglass on a study desk, steampunk",
			aspect_ratio: "16:9",
			num_outputs: 2,
			prompt_strength: 0.35,
			image: `data:image/png;base64,${Buffer.from(reference.data).toString("base64")}`,
		});
		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual(
			Array(2).fill({ width: 1344, height: 768, isFromReference: true }),
		);
	});

	it("leaves the strength out where the model has no strength input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { imageInputs: { image: "input_image" } });
		fake.setBehaviour({
			imageInputs: { image: "input_image", strength: "prompt_strength", scale: "scale" },
		});
		await startTestJob(provider, {
			image: { kind: "reference", image: await createTestImage(), strength: 0.7 },
		});
		const { input } = CreateBodySchema.parse(apiRequests(fake)[0]?.body);
		expect(Object.keys(input).sort()).toEqual(
			["aspect_ratio", "input_image", "num_outputs", "prompt"].sort(),
		);
	});

	it("runs an upscaler entry with the image and the factor only, and the image comes back that much larger", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			model: "nightmareai/real-esrgan",
			seedInput: null,
			imagesPerPrediction: 1,
			extraInput: { face_enhance: false },
			imageInputs: { image: "image", upscale: { scale: "scale", factors: [2, 4] } },
		});
		expect(provider.capabilities).toMatchObject({
			textToImage: false,
			imageInput: false,
			upscaleFactors: [2, 4],
			// An upscaler model adds detail: nothing to warn of.
			upscaleResamples: false,
		});
		const reference = await createTestImage({ width: 96, height: 64 });
		const job = await startTestJob(provider, {
			count: 1,
			seed: 7,
			image: { kind: "upscale", image: reference, factor: 4 },
		});
		const { input } = CreateBodySchema.parse(apiRequests(fake)[0]?.body);
		expect(input).toEqual({
			face_enhance: false,
			image: `data:image/png;base64,${Buffer.from(reference.data).toString("base64")}`,
			scale: 4,
		});
		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual([
			{ width: 384, height: 256, isFromReference: true },
		]);
	});
});
