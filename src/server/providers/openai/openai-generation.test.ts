import { describe, expect, it, onTestFinished } from "vitest";
import { createModelCatalogue, modelFromProvider } from "../../models/model-catalogue";
import { DEFAULT_RUN_SETTINGS } from "../../server";
import { FAKE_OPENAI_KEY, startFakeOpenAi } from "../../testing/fakes/openai";
import {
	readGeneration,
	readPoll,
	requestGeneration,
	signUp,
	startServerWithProvider,
	waitForFinish,
	waitUntilStarted,
} from "../../testing/generation-kit";
import { createTestServer } from "../../testing/test-server";
import type { OpenAiQuality } from "./openai-config";
import { createOpenAiProvider } from "./openai-provider";

async function startWorld(retryAfterSeconds = 0, quality?: OpenAiQuality) {
	const fake = await startFakeOpenAi({ behaviour: { latencyMs: 50, retryAfterSeconds } });
	onTestFinished(() => fake.stop());
	const { client } = await startServerWithProvider(
		createOpenAiProvider({
			apiKey: FAKE_OPENAI_KEY,
			baseUrl: fake.baseUrl,
			...(quality ? { quality } : {}),
		}),
	);
	return { fake, client };
}

describe("openai through the worker", () => {
	it("stores four base64 images cropped to the exact ratio", async () => {
		const { fake, client } = await startWorld();
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 9:16");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({ status: "completed" });
		const generation = await readGeneration(client, created.id);
		expect(generation.images.map((image) => [image.width, image.height])).toEqual(
			Array(4).fill([864, 1536]),
		);
		expect(fake.requests()[0]?.body).toMatchObject({ size: "1024x1536", n: 4 });
	});

	it("retries a rate-limited call, and fails a moderated one at once", async () => {
		const { fake, client } = await startWorld();
		fake.fail("generate", "rate-limited", { times: 1 });
		const retried = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		expect(await waitForFinish(client, retried.pollingUrl)).toMatchObject({ status: "completed" });
		expect(fake.generateCount()).toBe(2);

		const refused = await requestGeneration(client, "something forbidden", "--ar 1:1");
		expect(await waitForFinish(client, refused.pollingUrl)).toMatchObject({
			status: "failed",
			results: [],
			message: "The provider refused this prompt",
		});
		expect(fake.generateCount()).toBe(3);
	});

	it("tells the person the image service is busy while a rate limit is waited out", async () => {
		const { fake, client } = await startWorld(1);
		fake.fail("generate", "rate-limited", { times: 1 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		const messages: Array<string | null> = [];
		const finished = await waitForFinish(client, created.pollingUrl, (poll) => {
			if (messages.at(-1) !== poll.message) messages.push(poll.message);
		});
		expect(finished).toMatchObject({ status: "completed", message: null });
		// Busy while the Retry-After second is waited out; once OpenAI answers, the message goes away.
		const busy = "The image service is busy, retrying";
		expect(messages).toContain(busy);
		expect(messages.slice(messages.indexOf(busy))).toEqual([busy, null]);
		expect(fake.generateCount()).toBe(2);
	});
});

describe("openai's quality through the API", () => {
	it("makes the chosen quality, and records the configured one when the request names none", async () => {
		const { fake, client } = await startWorld();
		const chosen = await requestGeneration(client, "a lighthouse", "--ar 1:1", {
			quality: "high",
			count: 1,
		});
		expect((await waitForFinish(client, chosen.pollingUrl)).settings).toEqual({
			count: 1,
			seed: null,
			negativePrompt: null,
			quality: "high",
		});
		const unnamed = await requestGeneration(client, "a lighthouse", "--ar 1:1", { count: 2 });
		expect((await waitForFinish(client, unnamed.pollingUrl)).settings.quality).toBe("medium");
		expect(fake.requests().map((request) => request.body)).toEqual([
			expect.objectContaining({ quality: "high", n: 1 }),
			expect.objectContaining({ quality: "medium", n: 2 }),
		]);
	});

	it("records no quality when OpenAI is left to choose (auto), and sends auto", async () => {
		const { fake, client } = await startWorld(0, "auto");
		const created = await requestGeneration(client, "a lighthouse", "--ar 1:1", { count: 1 });
		expect((await waitForFinish(client, created.pollingUrl)).settings.quality).toBeNull();
		expect(fake.requests()[0]?.body).toMatchObject({ quality: "auto" });
	});

	it("uses the first quality an entry offers when it narrowed the configured one away", async () => {
		const fake = await startFakeOpenAi({ behaviour: { latencyMs: 0 } });
		onTestFinished(() => fake.stop());
		const provider = createOpenAiProvider({ apiKey: FAKE_OPENAI_KEY, baseUrl: fake.baseUrl });
		const server = await createTestServer("pglite", {
			models: createModelCatalogue(
				[modelFromProvider(provider, { id: "draft", label: "Draft", qualities: ["low", "high"] })],
				"draft",
			),
			run: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 20, retryDelayMs: 50, timeoutMs: 30_000 },
		});
		onTestFinished(() => server.close());
		const client = await signUp(server);
		const created = await requestGeneration(client, "a lighthouse", "--ar 1:1", { count: 1 });
		expect((await waitForFinish(client, created.pollingUrl)).settings.quality).toBe("low");
		expect(fake.requests()[0]?.body).toMatchObject({ quality: "low" });
	});
});

describe("an OpenAI generation's progress", () => {
	it("shows each partial image the call streams as the preview, running, until the images come", async () => {
		// The streamed answer sends its frames and its image when the test says.
		const fake = await startFakeOpenAi({ behaviour: { latencyMs: 0, holdsStreams: true } });
		onTestFinished(() => fake.stop());
		const { client } = await startServerWithProvider(
			createOpenAiProvider({ apiKey: FAKE_OPENAI_KEY, baseUrl: fake.baseUrl }),
		);
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1", {
			count: 1,
		});
		await waitUntilStarted(client, created.id);
		await expect.poll(() => fake.heldStreams()).toBe(1);
		// The call is under way and nothing has streamed yet.
		expect((await readPoll(client, created.pollingUrl)).progress).toMatchObject({
			stage: "starting",
			previewUrl: null,
		});

		expect(await fake.sendPartialImage()).toBe(1);
		const previewOf = async () => (await readPoll(client, created.pollingUrl)).progress?.previewUrl;
		await expect.poll(previewOf).toMatch(/preview-\d+\.webp$/);
		const first = (await readPoll(client, created.pollingUrl)).progress;
		expect(first).toEqual({
			stage: "running",
			position: null,
			percent: null,
			step: null,
			steps: null,
			previewUrl: expect.stringMatching(/preview-\d+\.webp$/),
		});
		expect((await readGeneration(client, created.id)).progress).toEqual(first);
		const preview = await client.request(first?.previewUrl ?? "");
		expect(preview.status).toBe(200);
		expect(preview.headers.get("content-type")).toBe("image/webp");

		// The next frame replaces the first, which is removed.
		expect(await fake.sendPartialImage()).toBe(1);
		await expect.poll(previewOf).not.toBe(first?.previewUrl);
		const second = await previewOf();
		expect(second).toMatch(/preview-\d+\.webp$/);
		await expect.poll(async () => (await client.request(first?.previewUrl ?? "")).status).toBe(404);

		await fake.finishStreams();
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished).toMatchObject({ status: "completed", progress: null });
		expect(finished.results).toHaveLength(1);
		// Removed by the run just after the generation completes.
		await expect.poll(async () => (await client.request(second ?? "")).status).toBe(404);
	});
});
