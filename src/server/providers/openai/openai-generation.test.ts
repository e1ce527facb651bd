import { describe, expect, it, onTestFinished } from "vitest";
import { createModelCatalogue, modelFromProvider } from "../../models/model-catalogue";
import { DEFAULT_RUN_SETTINGS } from "../../server";
import { FAKE_OPENAI_KEY, startFakeOpenAi } from "../../testing/fakes/openai";
import {
	readGeneration,
	requestGeneration,
	signUp,
	startServerWithProvider,
	waitForFinish,
} from "../../testing/generation-kit";
import { createTestServer } from "../../testing/test-server";
import type { OpenAiQuality } from "./openai-config";
import { createOpenAiProvider } from "./openai-provider";

async function startWorld(retryAfterSeconds = 0, quality?: OpenAiQuality) {
	const fake = await startFakeOpenAi({ behaviour: { latencyMs: 50, retryAfterSeconds } });
	onTestFinished(() => fake.stop());
	const server = await startServerWithProvider(
		createOpenAiProvider({
			apiKey: FAKE_OPENAI_KEY,
			baseUrl: fake.baseUrl,
			...(quality ? { quality } : {}),
		}),
	);
	onTestFinished(() => server.close());
	return { fake, client: await signUp(server) };
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
