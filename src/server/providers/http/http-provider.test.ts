import { describe, expect, it, onTestFinished } from "vitest";
import { downloadImage } from "../../images/download-image";
import {
	type FakeHttpImageService,
	type FakeHttpImageServiceOptions,
	startFakeHttpImageService,
} from "../../testing/fakes/http-image-service";
import { catchProviderError, createTestInput, startTestJob } from "../../testing/provider-kit";
import { type ImageProvider, type ImageSource, PLAIN_CAPABILITIES } from "../types";
import { createHttpProvider, type HttpProviderOptions } from "./http-provider";

const NEVER = 3_600_000;

async function startService(
	options: FakeHttpImageServiceOptions = {},
): Promise<FakeHttpImageService> {
	const service = await startFakeHttpImageService({ latencyMs: 0, ...options });
	onTestFinished(() => service.stop());
	return service;
}

function createProvider(
	service: FakeHttpImageService,
	overrides: Partial<HttpProviderOptions> = {},
): ImageProvider {
	return createHttpProvider({ apiUrl: service.url, requestTimeoutMs: 5_000, ...overrides });
}

function toUrls(images: ImageSource[]): string[] {
	return images.map((image) => (image.kind === "url" ? image.url : "(bytes)"));
}

describe("http provider: happy path", () => {
	it("starts, reports running, then completed with four downloadable, different images", async () => {
		const service = await startService({ latencyMs: NEVER });
		const provider = createProvider(service);
		const job = await startTestJob(provider);

		expect(service.requests()[0]?.body).toEqual({
			prompt: "An hourglass on a study desk, steampunk",
			aspectRatio: "--ar 16:9",
		});
		await expect(provider.check(job)).resolves.toEqual({ status: "running" });

		service.setBehaviour({ latencyMs: 0 });
		const state = await provider.check(job);
		if (state.status !== "completed") throw new Error(`Expected completed, got ${state.status}`);
		const urls = toUrls(state.images);
		expect(urls).toHaveLength(4);
		for (const url of urls) expect(url.startsWith(`${service.origin}/images/`)).toBe(true);

		const downloads = await Promise.all(
			urls.map((url) =>
				downloadImage(url, {
					maxBytes: 100_000,
					timeoutMs: 5_000,
					allowPrivateHosts: provider.trustedPrivateHosts ?? [],
				}),
			),
		);
		expect(downloads.map((image) => image.contentType)).toEqual(Array(4).fill("image/png"));
		const distinct = new Set(downloads.map((image) => Buffer.from(image.data).toString("base64")));
		expect(distinct.size).toBe(4);
	});

	it("resumes a job from its saved id in a fresh provider, without starting again", async () => {
		const service = await startService();
		const job = await startTestJob(createProvider(service));

		const afterRestart = createProvider(service);
		const state = await afterRestart.check({ jobId: job.jobId, input: job.input });
		expect(state.status).toBe("completed");
		expect(service.startCount()).toBe(1);
		expect(JSON.parse(job.jobId)).toEqual({
			id: expect.stringMatching(/^job_/),
			pollingUrl: expect.stringMatching(new RegExp(`^${service.origin}/jobs/job_`)),
		});
	});

	it("accepts the { id, status: 'processing' } start shape with a relative polling URL", async () => {
		const service = await startService({
			behaviour: { start: "processing", pollingUrlStyle: "relative" },
		});
		const provider = createProvider(service);
		const job = await startTestJob(provider);
		const state = await provider.check(job);
		expect(state.status).toBe("completed");
	});

	it.each(["strings", "url-objects", "src-objects", "relative"] as const)(
		"reads results given as %s into absolute URLs",
		async (results) => {
			const service = await startService({ behaviour: { results } });
			const provider = createProvider(service);
			const state = await provider.check(await startTestJob(provider));
			if (state.status !== "completed") throw new Error(`Expected completed, got ${state.status}`);
			const urls = toUrls(state.images);
			expect(urls).toHaveLength(4);
			expect(urls[0]).toMatch(new RegExp(`^${service.origin}/images/job_\\w+/0\\.png$`));
		},
	);

	it("trusts the API's own host:port for downloads only when it is on a private network", () => {
		expect(
			createHttpProvider({ apiUrl: "http://127.0.0.1:8188/generate" }).trustedPrivateHosts,
		).toEqual(["127.0.0.1:8188"]);
		expect(createHttpProvider({ apiUrl: "http://imagegen/generate" }).trustedPrivateHosts).toEqual([
			"imagegen:80",
		]);
		expect(
			createHttpProvider({ apiUrl: "https://api.example.com/mj-gen-images" }).trustedPrivateHosts,
		).toEqual([]);
		expect(() => createHttpProvider({ apiUrl: "ftp://example.com/" })).toThrow(
			/not an http\(s\) URL/,
		);
	});
});

describe("http provider: the generation's settings", () => {
	it("offers no seed, negative prompt or quality, the contract having none, and keeps the images asked for", async () => {
		const service = await startService();
		const provider = createProvider(service);
		expect(provider.capabilities).toEqual(PLAIN_CAPABILITIES);
		const job = await startTestJob(provider, { count: 2, seed: null, negativePrompt: null });
		expect(service.requests()[0]?.body).toEqual({
			prompt: "An hourglass on a study desk, steampunk",
			aspectRatio: "--ar 16:9",
		});
		const state = await provider.check(job);
		if (state.status !== "completed") throw new Error(`Expected completed, got ${state.status}`);
		// The service made its four; the first two are kept.
		expect(toUrls(state.images)).toHaveLength(2);
	});
});

describe("http provider: start failures", () => {
	it("retries a server error, showing the server's message", async () => {
		const service = await startService({
			behaviour: { start: "server-error", startError: "Upstream queue unavailable" },
		});
		const error = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/HTTP 500: Upstream queue unavailable/);
		expect(error.userMessage).toBe("Upstream queue unavailable");
	});

	it("fails without retry on success: false, with the error as string or object", async () => {
		const service = await startService({
			behaviour: { start: "rejected", startError: "Prompt rejected by the moderation filter" },
		});
		const provider = createProvider(service);
		const asString = await catchProviderError(provider.start(createTestInput()));
		expect(asString.retryable).toBe(false);
		expect(asString.userMessage).toBe("Prompt rejected by the moderation filter");
		expect(asString.message).toMatch(/was refused: Prompt rejected by the moderation filter/);

		service.setBehaviour({ startError: { message: "Out of credits", code: "NO_CREDITS" } });
		const asObject = await catchProviderError(provider.start(createTestInput()));
		expect(asObject.userMessage).toBe("Out of credits");

		service.setBehaviour({ startError: { code: "NO_CREDITS" } });
		const codeOnly = await catchProviderError(provider.start(createTestInput()));
		expect(codeOnly.userMessage).toBe("NO_CREDITS");
	});

	it("fails without retry on a 4xx, with the server's message", async () => {
		const service = await startService();
		const error = await catchProviderError(
			createProvider(service).start(createTestInput({ prompt: "   " })),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/HTTP 400: prompt is required/);
		expect(error.userMessage).toBe("prompt is required");
	});

	it("retries 429 after the server's Retry-After", async () => {
		const service = await startService({
			behaviour: { start: "rate-limited", retryAfterSeconds: 5 },
		});
		const error = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(error.retryable).toBe(true);
		expect(error.retryAfterMs).toBe(5_000);
		expect(error.message).toMatch(/HTTP 429/);
	});

	it("retries an answer that is not JSON", async () => {
		const service = await startService({ behaviour: { start: "bad-json" } });
		const error = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/answered a body that is not JSON/);
	});

	it("fails when the answer has no polling URL", async () => {
		const service = await startService({ behaviour: { start: "no-polling-url" } });
		const error = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(error.retryable).toBe(false);
		expect(error.userMessage).toBe("No polling URL provided");
	});

	it("times out on a start that never answers", async () => {
		const service = await startService({ behaviour: { start: "hang" } });
		const provider = createProvider(service, { requestTimeoutMs: 300 });
		const error = await catchProviderError(provider.start(createTestInput()));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/timed out after 300 ms/);
	});

	it("retries when the service cannot be reached", async () => {
		const service = await startFakeHttpImageService();
		await service.stop();
		const error = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/failed: fetch failed \(ECONNREFUSED/);
	});

	it("rejects with the caller's reason when the caller aborts", async () => {
		const service = await startService({ behaviour: { start: "hang" } });
		const controller = new AbortController();
		const starting = createProvider(service).start(createTestInput(), {
			signal: controller.signal,
		});
		const reason = new Error("shutting down");
		controller.abort(reason);
		await expect(starting).rejects.toBe(reason);
	});
});

describe("http provider: poll failures", () => {
	it("reports failed and error statuses with the service's message, else Generation failed", async () => {
		const service = await startService({
			behaviour: { poll: "failed", pollMessage: "The image service ran out of GPU memory" },
		});
		const provider = createProvider(service);
		const job = await startTestJob(provider);
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "failed",
			message: "The image service ran out of GPU memory",
		});

		service.setBehaviour({ poll: "error", pollMessage: "Banned prompt" });
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "failed",
			message: "Banned prompt",
		});

		service.setBehaviour({ poll: "failed", pollMessage: null });
		await expect(provider.check(job)).resolves.toMatchObject({
			status: "failed",
			message: "Generation failed",
		});
	});

	it("treats completed without results as a failure", async () => {
		const service = await startService({ behaviour: { poll: "completed-empty" } });
		const provider = createProvider(service);
		await expect(provider.check(await startTestJob(provider))).resolves.toMatchObject({
			status: "failed",
			message: "Generation failed",
		});
	});

	it("times out on a poll that never answers", async () => {
		const service = await startService({ behaviour: { poll: "hang" } });
		const provider = createProvider(service, { requestTimeoutMs: 300 });
		const job = await startTestJob(provider);
		const error = await catchProviderError(provider.check(job));
		expect(error.retryable).toBe(true);
		expect(error.message).toMatch(/Polling .* timed out after 300 ms/);
	});

	it("retries bad JSON and JSON that is not an object", async () => {
		const service = await startService({ behaviour: { poll: "bad-json" } });
		const provider = createProvider(service);
		const job = await startTestJob(provider);
		const badJson = await catchProviderError(provider.check(job));
		expect(badJson.retryable).toBe(true);
		expect(badJson.message).toMatch(/answered a body that is not JSON/);

		service.setBehaviour({ poll: "not-object" });
		const notObject = await catchProviderError(provider.check(job));
		expect(notObject.retryable).toBe(true);
		expect(notObject.message).toMatch(/answered JSON that is not an object/);
	});

	it("retries 429 (after Retry-After) and 5xx", async () => {
		const service = await startService({
			behaviour: { poll: "rate-limited", retryAfterSeconds: 3 },
		});
		const provider = createProvider(service);
		const job = await startTestJob(provider);
		const limited = await catchProviderError(provider.check(job));
		expect(limited.retryable).toBe(true);
		expect(limited.retryAfterMs).toBe(3_000);

		service.setBehaviour({ poll: "server-error" });
		const gateway = await catchProviderError(provider.check(job));
		expect(gateway.retryable).toBe(true);
		expect(gateway.message).toMatch(/HTTP 502/);
	});

	it("fails without retry when the generation is not found", async () => {
		const service = await startService();
		const provider = createProvider(service);
		const job = await startTestJob(provider);
		const lost = {
			...job,
			jobId: JSON.stringify({ id: "x", pollingUrl: `${service.origin}/jobs/x` }),
		};
		const error = await catchProviderError(provider.check(lost));
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/Generation not found at the provider/);
	});

	it("refuses a job id it did not make", async () => {
		const service = await startService();
		const error = await catchProviderError(
			createProvider(service).check({ jobId: "local_123", input: createTestInput() }),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/Not an http provider job id/);
	});

	it("completes with image URLs that then fail to download with a 404", async () => {
		const service = await startService({ behaviour: { imagesMissing: true } });
		const provider = createProvider(service);
		const state = await provider.check(await startTestJob(provider));
		if (state.status !== "completed") throw new Error(`Expected completed, got ${state.status}`);
		const [url = ""] = toUrls(state.images);
		const error = await catchProviderError(
			downloadImage(url, {
				maxBytes: 100_000,
				timeoutMs: 5_000,
				allowPrivateHosts: provider.trustedPrivateHosts ?? [],
			}),
		);
		expect(error.retryable).toBe(false);
		expect(error.message).toMatch(/Image URL not found \(HTTP 404\)/);
	});
});

describe("http provider: API key", () => {
	it("fails without retry when the key is missing, and sends it to start and polls when set", async () => {
		const service = await startService({ behaviour: { apiKey: "sk-test-123" } });
		const unauthorised = await catchProviderError(createProvider(service).start(createTestInput()));
		expect(unauthorised.retryable).toBe(false);
		expect(unauthorised.userMessage).toBe("Invalid or missing API key");

		const provider = createProvider(service, { apiKey: "sk-test-123" });
		const state = await provider.check(await startTestJob(provider));
		expect(state.status).toBe("completed");
		expect(service.requests().map((request) => [request.method, request.authorization])).toEqual([
			["POST", undefined],
			["POST", "Bearer sk-test-123"],
			["GET", "Bearer sk-test-123"],
		]);
	});

	it("does not send the key to a polling URL on another origin", async () => {
		const pollingService = await startService();
		const apiService = await startService({
			behaviour: { apiKey: "sk-test-123", pollingOrigin: pollingService.origin },
		});
		const provider = createProvider(apiService, { apiKey: "sk-test-123" });
		const job = await startTestJob(provider);
		const state = await provider.check(job);

		expect(state.status).toBe("completed");
		expect(apiService.requests().map((request) => request.authorization)).toEqual([
			"Bearer sk-test-123",
		]);
		expect(pollingService.pollCount()).toBe(1);
		expect(pollingService.requests().map((request) => request.authorization)).toEqual([undefined]);
	});
});
