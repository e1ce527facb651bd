import { describe, expect, it, onTestFinished } from "vitest";
import { readMultipart } from "../../testing/fakes/fake-server";
import {
	FAKE_OPENAI_KEY,
	type FakeOpenAi,
	type FakeOpenAiOptions,
	startFakeOpenAi,
} from "../../testing/fakes/openai";
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
import type { ImageProvider, ProviderProgress } from "../types";
import { createOpenAiProvider, type OpenAiProviderOptions } from "./openai-provider";

async function startFake(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
	const fake = await startFakeOpenAi({
		...options,
		behaviour: { latencyMs: 0, ...options.behaviour },
	});
	onTestFinished(() => fake.stop());
	return fake;
}

function createProvider(
	fake: FakeOpenAi,
	overrides: Partial<OpenAiProviderOptions> = {},
): ImageProvider {
	return createOpenAiProvider({
		apiKey: FAKE_OPENAI_KEY,
		baseUrl: fake.baseUrl,
		requestTimeoutMs: 5_000,
		...overrides,
	});
}

describe("openai provider: the generation's settings", () => {
	it("offers low, medium and high quality, no seed and no negative prompt", async () => {
		const fake = await startFake();
		expect(createProvider(fake).capabilities).toEqual({
			seed: false,
			negativePrompt: false,
			qualities: ["low", "medium", "high"],
			maxCount: 4,
			defaultQuality: "medium",
			textToImage: true,
			// Vary and Edit through the edit endpoint, which takes no strength.
			imageInput: true,
			referenceStrength: false,
			upscaleFactors: [],
			upscaleResamples: false,
			// Its edit endpoint takes a mask: transparent where the image may change.
			mask: true,
			outpaint: true,
		});
		expect(createProvider(fake, { quality: "high" }).capabilities.defaultQuality).toBe("high");
		// auto has no quality a person could choose: OpenAI picks, and nothing is recorded.
		expect(createProvider(fake, { quality: "auto" }).capabilities).not.toHaveProperty(
			"defaultQuality",
		);
	});

	it("sends the generation's quality and count, and the configured quality when it names none", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { quality: "auto" });
		await checkUntilDone(provider, await startTestJob(provider, { quality: "low", count: 2 }));
		await checkUntilDone(provider, await startTestJob(provider, { quality: null, count: 1 }));
		expect(fake.requests().map((request) => request.body)).toEqual([
			expect.objectContaining({ quality: "low", n: 2 }),
			expect.objectContaining({ quality: "auto", n: 1 }),
		]);
		for (const request of fake.requests()) {
			expect(Object.keys(Object(request.body)).sort()).toEqual([
				"model",
				"n",
				"output_format",
				"partial_images",
				"prompt",
				"quality",
				"size",
				"stream",
			]);
		}
	});
});

describe("openai provider: images", () => {
	it("asks for four images at the nearest size and crops them to the exact ratio", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { prompt: "A red fox in the snow" });
		const images = expectCompleted(await checkUntilDone(provider, job));

		expect(fake.requests()).toHaveLength(1);
		expect(fake.requests()[0]).toMatchObject({
			path: "/v1/images/generations",
			authorization: `Bearer ${FAKE_OPENAI_KEY}`,
			body: {
				model: "gpt-image-1",
				prompt: "A red fox in the snow",
				n: 4,
				size: "1536x1024",
				quality: "medium",
				output_format: "png",
			},
		});
		expect(images.every((image) => image.kind === "bytes")).toBe(true);
		expect(await readImages(provider, images)).toEqual(
			Array(4).fill({ width: 1536, height: 864, format: "png" }),
		);
	});

	it.each([
		["--ar 1:1", "1024x1024", { width: 1024, height: 1024 }],
		["--ar 3:2", "1536x1024", { width: 1536, height: 1024 }],
		["--ar 2:3", "1024x1536", { width: 1024, height: 1536 }],
		["--ar 9:16", "1024x1536", { width: 864, height: 1536 }],
		["--ar 21:9", "1536x1024", { width: 1536, height: 658 }],
	] as const)(
		"generates %s at %s for gpt-image-1, giving %j",
		async (aspectRatio, size, pixels) => {
			const fake = await startFake();
			const provider = createProvider(fake);
			const job = await startTestJob(provider, { aspectRatio, count: 1 });
			const images = expectCompleted(await checkUntilDone(provider, job));
			expect(fake.requests()[0]?.body).toMatchObject({ size, n: 1 });
			expect(await readImages(provider, images)).toEqual([{ ...pixels, format: "png" }]);
		},
	);

	it.each([
		["--ar 16:9", "1536x864"],
		["--ar 9:16", "864x1536"],
		["--ar 21:9", "2016x864"],
	] as const)(
		"asks gpt-image-2 for the exact size of %s (%s), unless told to use the standard sizes",
		async (aspectRatio, size) => {
			const fake = await startFake();
			const provider = createProvider(fake, { model: "gpt-image-2", quality: "low" });
			const job = await startTestJob(provider, { aspectRatio, count: 1 });
			const [image] = await readImages(
				provider,
				expectCompleted(await checkUntilDone(provider, job)),
			);
			expect(fake.requests()[0]?.body).toMatchObject({
				model: "gpt-image-2",
				size,
				quality: "low",
			});
			expect(`${image?.width}x${image?.height}`).toBe(size);

			const standard = createProvider(fake, { model: "gpt-image-2", sizes: "standard" });
			await checkUntilDone(standard, await startTestJob(standard, { aspectRatio, count: 1 }));
			expect(fake.requests()[1]?.body).toMatchObject({
				size: expect.stringMatching(/^1[05]\d\dx1[05]\d\d$/),
			});
		},
	);

	it("reports running while OpenAI draws, and aborts the call when cancelled", async () => {
		const fake = await startFake();
		fake.fail("generate", "hang");
		const provider = createProvider(fake);
		const job = await startTestJob(provider);
		await expect.poll(() => fake.requests().length).toBe(1);
		await expect(provider.check(job)).resolves.toEqual({ status: "running" });
		await provider.cancel?.(job);
		await expect.poll(() => fake.requests()[0]?.isAbandoned).toBe(true);
	});

	it("sends the call again when a restarted server checks a job it no longer holds", async () => {
		const fake = await startFake();
		const job = await startTestJob(createProvider(fake));
		const afterRestart = createProvider(fake);
		expect(expectCompleted(await checkUntilDone(afterRestart, job))).toHaveLength(4);
		expect(fake.generateCount()).toBe(2);
		expect(JSON.parse(job.jobId)).toEqual({ provider: "openai", requestId: expect.any(String) });
	});

	it("trusts the API's host for downloads only when it is private, and refuses foreign job ids", async () => {
		const fake = await startFake();
		expect(createProvider(fake).trustedPrivateHosts).toEqual([new URL(fake.origin).host]);
		expect(createOpenAiProvider({ apiKey: "sk" }).trustedPrivateHosts).toEqual([]);
		const error = await catchProviderError(
			createProvider(fake).check({ jobId: "local_1", input: createTestInput() }),
		);
		expect(error.message).toMatch(/Not a job id of the OpenAI provider/);
	});
});

describe("openai provider: failures", () => {
	it("refuses a prompt the safety system blocks, without retry", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { prompt: "something forbidden" });
		const error = await catchProviderError(checkUntilDone(provider, job));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toBe("The provider refused this prompt");
		expect(error.message).toMatch(/HTTP 400 \(moderation_blocked\): Your request was rejected/);
	});

	it.each([
		["invalid", false, /^Invalid value: '1792x1024'/],
		["org-unverified", false, /^Your organization must be verified/],
		["rate-limited", true, /^The image service is busy/],
		["insufficient-quota", false, /^The image service account has no credit left$/],
		["server-error", true, /^The server had an error/],
		["no-retry", false, /^The engine is currently overloaded/],
		["bad-json", false, /^Generation failed$/],
		["malformed", false, /^Generation failed$/],
		["not-image", false, /^Generation failed$/],
		["drop", true, /^Generation failed$/],
	] as const)("maps %s (retryable: %s)", async (kind, retryable, userMessage) => {
		const fake = await startFake();
		const provider = createProvider(fake);
		fake.fail("generate", kind, { times: 1 });
		const job = await startTestJob(provider);
		const error = await catchProviderError(checkUntilDone(provider, job));
		expect(error.retryable).toBe(retryable);
		expect(error.userMessage).toMatch(userMessage);
		// Only a rate limit makes the worker tell the person the service is busy while it waits.
		expect(error.isBusy).toBe(kind === "rate-limited");
		if (kind === "rate-limited") expect(error.retryAfterMs).toBe(2_000);
		// The worker checks again after a retryable failure: the call is sent again and succeeds.
		if (retryable) {
			expect(expectCompleted(await checkUntilDone(provider, job))).toHaveLength(4);
			expect(fake.generateCount()).toBe(2);
		}
	});

	it("fails without retry for a refused key or a retired model", async () => {
		const fake = await startFake();
		const wrongKey = createProvider(fake, { apiKey: "sk-wrong" });
		const unauthorised = await catchProviderError(
			checkUntilDone(wrongKey, await startTestJob(wrongKey)),
		);
		expect(unauthorised.retryable).toBe(false);
		expect(unauthorised.userMessage).toBe("The image service did not accept Atelier's credentials");

		const retired = createProvider(fake, { model: "dall-e-3" });
		const notFound = await catchProviderError(checkUntilDone(retired, await startTestJob(retired)));
		expect(notFound.retryable).toBe(false);
		expect(notFound.message).toMatch(/model_not_found/);
	});

	it("times out a call that never answers, as a retryable failure", async () => {
		const fake = await startFake();
		fake.fail("generate", "hang", { times: 1 });
		const provider = createProvider(fake, { requestTimeoutMs: 200 });
		const job = await startTestJob(provider);
		const error = await catchProviderError(checkUntilDone(provider, job));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/timed out after 200 ms/);
	});

	it("refuses an answer larger than four images of the download limit", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { maxImageBytes: 1_000 });
		const error = await catchProviderError(checkUntilDone(provider, await startTestJob(provider)));
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/answered more than|is not an image of at most/);
	});
});

describe("openai provider: partial images", () => {
	it("streams a GPT image model's partial images and shows the newest as the preview", async () => {
		const fake = await startFake({ behaviour: { latencyMs: 600 } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { count: 1 });
		const previews: string[] = [];
		let state = await provider.check(job);
		while (state.status === "running") {
			if (state.preview) previews.push(state.preview.contentType);
			await new Promise((resolve) => setTimeout(resolve, 20));
			state = await provider.check(job);
		}

		expect(fake.requests()[0]?.body).toMatchObject({ stream: true, partial_images: 2 });
		expect(previews.length).toBeGreaterThanOrEqual(1);
		expect(previews.every((type) => type === "image/png")).toBe(true);
		expect(expectCompleted(state)).toHaveLength(1);
	});

	it("hands each partial image to whoever watches the job as it streams in, not at a check", async () => {
		const fake = await startFake({ behaviour: { holdsStreams: true } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { count: 1 });
		const heard: ProviderProgress[] = [];
		const stop = provider.watch?.(job, {
			signal: new AbortController().signal,
			onProgress: (progress) => heard.push(progress),
		});
		await expect.poll(() => fake.heldStreams()).toBe(1);

		expect(await fake.sendPartialImage()).toBe(1);
		// Heard without a single check.
		await expect.poll(() => heard.length).toBe(1);
		expect(heard[0]?.preview?.contentType).toBe("image/png");
		// Handed over once: a check has no preview to repeat.
		expect(await provider.check(job)).toEqual({ status: "running" });

		// With nobody watching, the next frame waits for a check.
		stop?.();
		expect(await fake.sendPartialImage()).toBe(1);
		await expect
			.poll(async () => {
				const state = await provider.check(job);
				return state.status === "running" ? state.preview?.contentType : state.status;
			})
			.toBe("image/png");
		expect(heard).toHaveLength(1);
		// partial_images is 2: OpenAI sends no third.
		expect(await fake.sendPartialImage()).toBe(0);

		await fake.finishStreams();
		expect(expectCompleted(await checkUntilDone(provider, job))).toHaveLength(1);
	});

	it("hands a partial image that came before anyone watched to the first watcher", async () => {
		const fake = await startFake({ behaviour: { holdsStreams: true } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, { count: 1 });
		await expect.poll(() => fake.heldStreams()).toBe(1);
		expect(await fake.sendPartialImage()).toBe(1);
		// Kept for whoever asks first: a watcher that starts after it came still hears it.
		const heard: ProviderProgress[] = [];
		await expect
			.poll(() => {
				const stop = provider.watch?.(job, {
					signal: new AbortController().signal,
					onProgress: (progress) => heard.push(progress),
				});
				stop?.();
				return heard.length;
			})
			.toBe(1);
		expect(heard[0]?.preview?.contentType).toBe("image/png");
		await fake.finishStreams();
		await checkUntilDone(provider, job);
	});

	it("asks for no stream where the model offers none (partialImages 0)", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { partialImages: 0 });
		await checkUntilDone(provider, await startTestJob(provider, { count: 1 }));
		expect(fake.requests()[0]?.body).not.toHaveProperty("stream");
	});
});

describe("openai provider: Vary and Edit through the edit endpoint", () => {
	it("sends the reference as the image file of a multipart edit, with the generation's fields and no strength", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { partialImages: 0 });
		const reference = await createTestImage();
		const job = await startTestJob(provider, {
			count: 2,
			quality: "high",
			image: { kind: "reference", image: reference, strength: 0.35 },
		});
		const images = expectCompleted(await checkUntilDone(provider, job));

		const [edit] = fake.requests();
		expect(edit?.path).toBe("/v1/images/edits");
		expect(edit?.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
		const form = edit ? await readMultipart(edit) : undefined;
		const fields = Object.fromEntries(
			[...(form?.entries() ?? [])].filter(([name]) => name !== "image"),
		);
		expect(fields).toEqual({
			model: "gpt-image-1",
			prompt: "An hourglass on a study desk, steampunk",
			n: "2",
			size: "1536x1024",
			quality: "high",
			output_format: "png",
		});
		const file = form?.get("image");
		expect(file).toBeInstanceOf(Blob);
		if (!(file instanceof Blob)) return;
		expect(file.type).toBe("image/png");
		expect(new Uint8Array(await file.arrayBuffer())).toEqual(reference.data);
		// Made from the reference, cropped to 16:9 like every OpenAI image.
		expect(await readImagesFromReference(provider, images)).toEqual(
			Array(2).fill({ width: 1536, height: 864, isFromReference: true }),
		);
		expect(fake.generateCount()).toBe(0);
	});

	it("streams an edit's partial images as the preview", async () => {
		const fake = await startFake({ behaviour: { latencyMs: 600 } });
		const provider = createProvider(fake);
		const job = await startTestJob(provider, {
			count: 1,
			image: { kind: "reference", image: await createTestImage(), strength: 0.7 },
		});
		const previews: string[] = [];
		let state = await provider.check(job);
		while (state.status === "running") {
			if (state.preview) previews.push(state.preview.contentType);
			await new Promise((resolve) => setTimeout(resolve, 20));
			state = await provider.check(job);
		}
		const [edit] = fake.requests();
		const form = edit ? await readMultipart(edit) : undefined;
		expect([form?.get("stream"), form?.get("partial_images")]).toEqual(["true", "2"]);
		expect(previews.length).toBeGreaterThanOrEqual(1);
		expect(await readImagesFromReference(provider, expectCompleted(state))).toEqual([
			{ width: 1536, height: 864, isFromReference: true },
		]);
	});

	it("refuses an upscale, which it never offers", async () => {
		const fake = await startFake();
		const provider = createProvider(fake, { partialImages: 0 });
		const job = await startTestJob(provider, {
			count: 1,
			image: { kind: "upscale", image: await createTestImage(), factor: 2 },
		});
		const error = await catchProviderError(checkUntilDone(provider, job));
		expect(error.retryable).toBe(false);
		expect(fake.requests()).toHaveLength(0);
	});
});
