import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import {
	FAKE_FAL_KEY,
	type FakeFal,
	type FakeFalOptions,
	startFakeFal,
} from "../../testing/fakes/fal";
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
import { createFalProvider, type FalProviderOptions } from "./fal-provider";

const NEVER = 3_600_000;

async function startFake(options: FakeFalOptions = {}): Promise<FakeFal> {
	const fake = await startFakeFal({
		...options,
		behaviour: { queueMs: 0, progressMs: 0, ...options.behaviour },
	});
	onTestFinished(() => fake.stop());
	return fake;
}

function createProvider(fake: FakeFal, overrides: Partial<FalProviderOptions> = {}): ImageProvider {
	return createFalProvider({
		apiKey: FAKE_FAL_KEY,
		queueUrl: fake.queueUrl,
		requestTimeoutMs: 5_000,
		...overrides,
	});
}

function pathsOf(fake: FakeFal): string[] {
	return fake.requests().map((request) => `${request.method} ${request.path}`);
}

describe("fal provider: the generation's settings", () => {
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
		const sd35 = createProvider(fake, { seedInput: null, negativePromptInput: "negative_prompt" });
		expect(sd35.capabilities).toMatchObject({ seed: false, negativePrompt: true });
	});

	it("sends the seed, the count as num_images and the negative prompt in the model's input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { negativePromptInput: "negative_prompt" });
		const job = await startTestJob(provider, { seed: 42, count: 2, negativePrompt: "blurry" });
		expect(fake.requests()[0]?.body).toEqual({
			prompt: "An hourglass on a study desk, steampunk",
			image_size: "landscape_16_9",
			num_images: 2,
			seed: 42,
			negative_prompt: "blurry",
		});
		expect(expectCompleted(await checkUntilDone(provider, job))).toHaveLength(2);
	});

	it("gives each request the next seed when the model makes one image at a time", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { imagesPerRequest: 1 });
		await startTestJob(provider, { seed: 42, count: 3 });
		expect(fake.requests().map((request) => request.body)).toEqual([
			expect.objectContaining({ seed: 42 }),
			expect.objectContaining({ seed: 43 }),
			expect.objectContaining({ seed: 44 }),
		]);
	});

	it("sends no seed or negative prompt the generation does not carry, or the model does not take", async () => {
		const fake = await startFake();
		await createProvider(fake, { seedInput: null }).start(createTestInput({ seed: 7 }));
		await createProvider(fake, { negativePromptInput: "negative_prompt" }).start(
			createTestInput({ seed: null, negativePrompt: null }),
		);
		for (const request of fake.requests()) {
			expect(Object.keys(Object(request.body)).sort()).toEqual([
				"image_size",
				"num_images",
				"prompt",
			]);
		}
	});
});

describe("fal provider: happy path", () => {
	it("submits one request of four, follows status_url, reads response_url at once and downloads four images", async () => {
		const fake = await startFake({ behaviour: { queueMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { prompt: "A red fox in the snow" });

		const [submit] = fake.requests();
		expect(submit).toMatchObject({
			method: "POST",
			path: "/fal-ai/flux/schnell",
			authorization: `Key ${FAKE_FAL_KEY}`,
			body: { prompt: "A red fox in the snow", image_size: "landscape_16_9", num_images: 4 },
		});
		await expect(provider.check(job)).resolves.toEqual({ status: "running", queuePosition: 0 });
		fake.setBehaviour({ queueMs: 0, progressMs: NEVER });
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "running",
			stage: "running",
			steps: 28,
		});

		fake.setBehaviour({ progressMs: 0 });
		const images = expectCompleted(await provider.check(job));
		expect(await readImages(provider, images)).toEqual(
			Array(4).fill({ width: 1024, height: 576, format: "jpeg" }),
		);
		// Status and result live under owner/app, without the model's sub-path.
		expect(pathsOf(fake).filter((line) => line.includes("/requests/"))).toEqual([
			expect.stringMatching(/^GET \/fal-ai\/flux\/requests\/[\w-]+\/status$/),
			expect.stringMatching(/^GET \/fal-ai\/flux\/requests\/[\w-]+\/status$/),
			expect.stringMatching(/^GET \/fal-ai\/flux\/requests\/[\w-]+\/status$/),
			expect.stringMatching(/^GET \/fal-ai\/flux\/requests\/[\w-]+$/),
		]);
		const files = fake.requests().filter((request) => request.path.startsWith("/files/"));
		expect(files.map((request) => request.authorization)).toEqual(Array(4).fill(undefined));
	});

	it.each([
		["--ar 1:1", "square_hd", { width: 1024, height: 1024 }],
		["--ar 9:16", "portrait_16_9", { width: 576, height: 1024 }],
		["--ar 3:2", { width: 1248, height: 832 }, { width: 1248, height: 832 }],
		["--ar 2:3", { width: 832, height: 1248 }, { width: 832, height: 1248 }],
		["--ar 21:9", { width: 1568, height: 672 }, { width: 1568, height: 672 }],
	] as const)("sends %s as image_size %j", async (aspectRatio, imageSize, pixels) => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { aspectRatio, count: 1 });
		expect(fake.requests()[0]?.body).toMatchObject({ image_size: imageSize });
		const [image] = await readImages(provider, expectCompleted(await provider.check(job)));
		expect(image).toMatchObject(pixels);
	});

	it("sends aspect_ratio to pro-ultra models (by name, or when told to)", async () => {
		const fake = await startFake();
		await createProvider(fake, { model: "fal-ai/flux-pro/v1.1-ultra" }).start(createTestInput());
		await createProvider(fake, { ratioInput: "aspect_ratio" }).start(createTestInput());
		expect(fake.requests().map((request) => [request.path, request.body])).toEqual([
			["/fal-ai/flux-pro/v1.1-ultra", expect.objectContaining({ aspect_ratio: "16:9" })],
			["/fal-ai/flux/schnell", expect.objectContaining({ aspect_ratio: "16:9" })],
		]);
		expect(fake.requests()[0]?.body).not.toHaveProperty("image_size");
	});

	it("resumes the same request from its saved id in a fresh provider, without submitting again", async () => {
		const fake = await startFake();
		const job = await startTestJob(createProvider(fake));
		expect(expectCompleted(await createProvider(fake).check(job))).toHaveLength(4);
		expect(fake.submitCount()).toBe(1);
		expect(JSON.parse(job.jobId)).toEqual({
			provider: "fal",
			requests: [
				{
					id: expect.any(String),
					status: expect.stringMatching(/\/fal-ai\/flux\/requests\/[\w-]+\/status$/),
					response: expect.stringMatching(/\/fal-ai\/flux\/requests\/[\w-]+$/),
					cancel: expect.stringMatching(/\/fal-ai\/flux\/requests\/[\w-]+\/cancel$/),
				},
			],
		});
	});

	it("makes one request per image when told to, merging extra input", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			imagesPerRequest: 1,
			extraInput: { enable_safety_checker: true, num_inference_steps: 4 },
		});
		const job = await startTestJob(provider);
		expect(fake.submitCount()).toBe(4);
		expect(fake.requests()[0]?.body).toEqual({
			enable_safety_checker: true,
			num_inference_steps: 4,
			prompt: "An hourglass on a study desk, steampunk",
			image_size: "landscape_16_9",
		});
		expect(expectCompleted(await provider.check(job))).toHaveLength(4);
	});
});

describe("fal provider: COMPLETED covers failures too", () => {
	it("reports a model validation error (422) with fal's detail, without retry", async () => {
		const fake = await startFake({ behaviour: { outcome: "validation" } });
		const provider = createProvider(fake);
		await expect(provider.check(await startTestJob(provider))).resolves.toEqual({
			status: "failed",
			message: "prompt: String should have at most 20 characters",
			reason: expect.stringMatching(/HTTP 422/),
		});
	});

	it.each([
		["runner-error", "Generation failed", /HTTP 503 \(runner_disconnected\)/],
		["timeout", "Generation failed", /HTTP 504 \(request_timeout\)/],
		["user-timeout", "Generation timed out", /HTTP 504/],
		["nsfw", "The provider refused this prompt", /flagged all 4 images/],
	] as const)("reports a %s result as failed", async (outcome, message, reason) => {
		const fake = await startFake({ behaviour: { outcome } });
		const provider = createProvider(fake);
		await expect(provider.check(await startTestJob(provider))).resolves.toEqual({
			status: "failed",
			message,
			reason: expect.stringMatching(reason),
		});
	});

	it("refuses a prompt the safety checker flags, and keeps the clean images when only some are", async () => {
		const fake = await startFake({ behaviour: { outcome: "nsfw-some" } });
		const provider = createProvider(fake);
		expect(expectCompleted(await provider.check(await startTestJob(provider)))).toHaveLength(3);
		await expect(
			provider.check(await startTestJob(provider, { prompt: "a forbidden garden" })),
		).resolves.toMatchObject({ status: "failed", message: "The provider refused this prompt" });
	});

	it("fails with a clear message when the result expired before it was read", async () => {
		const fake = await startFake({ behaviour: { resultTtlMs: 0 } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await new Promise((resolve) => setTimeout(resolve, 5));
		await expect(provider.check(job)).resolves.toEqual({
			status: "failed",
			message: "The images expired at the image service before they could be saved",
			reason: expect.stringMatching(/HTTP 404/),
		});
	});

	it("finds the media gone when the CDN files expired", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const images = expectCompleted(await provider.check(await startTestJob(provider)));
		fake.setBehaviour({ isMediaMissing: true });
		const error = await catchProviderError(readImages(provider, images));
		expect(error.retryable).toBe(false);
	});

	it("cancels a queued request with PUT cancel_url, then reports it cancelled", async () => {
		const fake = await startFake({ behaviour: { queueMs: NEVER } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await provider.cancel?.(job);
		expect(fake.requests().at(-1)).toMatchObject({
			method: "PUT",
			path: expect.stringMatching(/\/cancel$/),
			authorization: `Key ${FAKE_FAL_KEY}`,
		});
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "failed",
			message: "The generation was cancelled at the image service",
		});
		// A second cancel answers 400 ALREADY_COMPLETED; that is not an error for us.
		await expect(provider.cancel?.(job)).resolves.toBeUndefined();
	});

	it("cancels the rest of a set when one request fails", async () => {
		const fake = await startFake({ behaviour: { queueMs: NEVER } });
		const provider = createProvider(fake, { imagesPerRequest: 2 });
		const job = await startTestJob(provider);
		fake.setBehaviour({ queueMs: 0, outcome: "runner-error" });
		const state = await checkUntilDone(provider, job);
		expect(state).toMatchObject({ status: "failed" });
		expect(fake.requests().filter((request) => request.method === "PUT")).toHaveLength(2);
	});
});

describe("fal provider: HTTP failures", () => {
	it.each([
		["rate-limited", true, "The image service is busy. Please try again later."],
		["server-error", true, "HTTP 502"],
		["unauthorized", false, "The image service did not accept Atelier's credentials"],
		["no-balance", false, "The image service account has no credit left"],
		["bad-json", false, "Generation failed"],
		["malformed", false, "Generation failed"],
		["drop", true, "Generation failed"],
	] as const)(
		"maps a submit answering %s (retryable: %s)",
		async (kind, retryable, userMessage) => {
			const fake = await startFake();
			fake.fail("submit", kind);
			const error = await catchProviderError(createProvider(fake).start(createTestInput()));
			expect(error.retryable).toBe(retryable);
			expect(error.userMessage).toBe(userMessage);
		},
	);

	it("honours a Retry-After on 429 when fal sends one", async () => {
		const fake = await startFake({ behaviour: { retryAfterSeconds: 4 } });
		fake.fail("submit", "rate-limited");
		const error = await catchProviderError(createProvider(fake).start(createTestInput()));
		expect(error.retryAfterMs).toBe(4_000);
	});

	it.each([
		["status", "rate-limited", true],
		["status", "server-error", true],
		["status", "bad-json", true],
		["status", "malformed", true],
		["status", "not-found", false],
		["result", "rate-limited", true],
		["result", "server-error", true],
		["result", "bad-json", true],
		["result", "malformed", true],
	] as const)("maps a %s poll answering %s (retryable: %s)", async (endpoint, kind, retryable) => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		fake.fail(endpoint, kind, { times: 1 });
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(retryable);
		expect(expectCompleted(await provider.check(job))).toHaveLength(4);
	});

	it("times out a status poll that never answers", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { requestTimeoutMs: 200 });
		const job = await startTestJob(provider);
		fake.fail("status", "hang");
		expect((await catchProviderError(provider.check(job))).retryable).toBe(true);
	});

	it("never sends the key to queue URLs on another origin", async () => {
		const elsewhere = await startFake();
		const fake = await startFake({ behaviour: { urlOrigin: elsewhere.origin } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await provider.check(job).catch(() => undefined);
		await provider.cancel?.(job).catch(() => undefined);
		expect(elsewhere.requests().map((request) => [request.method, request.authorization])).toEqual([
			["GET", undefined],
			["PUT", undefined],
		]);
	});

	it("refuses a bad model name at boot and a job id it did not make", async () => {
		expect(() => createFalProvider({ apiKey: "k", model: "schnell" })).toThrow(/FAL_MODEL/);
		const fake = await startFake();
		const error = await catchProviderError(
			createProvider(fake).check({ jobId: '{"provider":"replicate"}', input: createTestInput() }),
		);
		expect(error.message).toMatch(/Not a job id of the fal provider/);
	});
});

describe("fal provider: progress", () => {
	it("reports fal's queue position while queued, then the steps its logs show", async () => {
		const fake = await startFake({ behaviour: { queueMs: NEVER } });
		const provider = createProvider(fake);
		const first = await startTestJob(provider, { count: 1 });
		const second = await startTestJob(provider, { count: 1 });

		expect(await provider.check(second)).toEqual({ status: "running", queuePosition: 1 });
		expect(await provider.check(first)).toEqual({ status: "running", queuePosition: 0 });

		fake.setBehaviour({ queueMs: 0, progressMs: NEVER });
		expect(await provider.check(first)).toMatchObject({
			status: "running",
			stage: "running",
			progress: 0,
			step: 0,
			steps: 28,
		});
		const statusRequests = fake.requests().filter((request) => request.path.endsWith("/status"));
		expect(statusRequests.every((request) => request.query.get("logs") === "1")).toBe(true);
	});
});

describe("fal provider: images made from an image", () => {
	const InputSchema = z.record(z.string(), z.unknown());

	it("sends the reference as a data URI in the named input, with the strength, and the images come from it", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			model: "fal-ai/flux/dev/image-to-image",
			imageInputs: { image: "image_url", strength: "strength" },
		});
		expect(provider.capabilities).toMatchObject({
			textToImage: true,
			imageInput: true,
			referenceStrength: true,
		});
		const reference = await createTestImage();
		const job = await startTestJob(provider, {
			count: 2,
			image: { kind: "reference", image: reference, strength: 0.7 },
		});
		const [submit] = fake.requests();
		expect(submit?.path).toBe("/fal-ai/flux/dev/image-to-image");
		expect(InputSchema.parse(submit?.body)).toMatchObject({
			prompt: "An hourglass on a study desk, steampunk",
			num_images: 2,
			strength: 0.7,
			image_url: `data:image/png;base64,${Buffer.from(reference.data).toString("base64")}`,
		});
		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual(
			Array(2).fill({ width: 1024, height: 576, isFromReference: true }),
		);
	});

	it("runs an upscaler entry with the image and the factor only, and the image comes back that much larger", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, {
			model: "fal-ai/esrgan",
			imagesPerRequest: 1,
			imageInputs: { image: "image_url", upscale: { scale: "scale", factors: [2] } },
		});
		expect(provider.capabilities).toMatchObject({
			textToImage: false,
			imageInput: false,
			upscaleFactors: [2],
			upscaleResamples: false,
		});
		const reference = await createTestImage({ width: 96, height: 64, format: "jpeg" });
		const job = await startTestJob(provider, {
			count: 1,
			image: { kind: "upscale", image: reference, factor: 2 },
		});
		expect(fake.requests()[0]?.body).toEqual({
			image_url: `data:image/jpeg;base64,${Buffer.from(reference.data).toString("base64")}`,
			scale: 2,
		});
		const images = expectCompleted(await checkUntilDone(provider, job));
		expect(await readImagesFromReference(provider, images)).toEqual([
			{ width: 192, height: 128, isFromReference: true },
		]);
	});
});
