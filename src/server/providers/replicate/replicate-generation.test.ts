import { describe, expect, it, onTestFinished } from "vitest";
import {
	FAKE_REPLICATE_TOKEN,
	type FakeReplicateBehaviour,
	startFakeReplicate,
} from "../../testing/fakes/replicate";
import {
	deleteWhenStarted,
	readGeneration,
	readPoll,
	requestGeneration,
	startServerWithProvider,
	waitForFinish,
	waitUntilStarted,
} from "../../testing/generation-kit";
import { createReplicateProvider } from "./replicate-provider";

const NEVER = 3_600_000;

async function startWorld(behaviour: Partial<FakeReplicateBehaviour> = {}) {
	const fake = await startFakeReplicate({
		behaviour: { startingMs: 0, processingMs: 50, retryAfterSeconds: 0, ...behaviour },
	});
	onTestFinished(() => fake.stop());
	const provider = createReplicateProvider({
		apiToken: FAKE_REPLICATE_TOKEN,
		baseUrl: fake.baseUrl,
	});
	const { server, client } = await startServerWithProvider(provider);
	return { fake, server, client };
}

describe("replicate through the worker", () => {
	it("stores four images in the chosen ratio; the --ar flag typed in the prompt is not sent", async () => {
		const { fake, client } = await startWorld();
		const created = await requestGeneration(client, "a lighthouse at dusk --ar 21:9", "--ar 16:9");
		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll).toMatchObject({ status: "completed", message: null });
		expect(poll.results).toHaveLength(4);

		const generation = await readGeneration(client, created.id);
		expect(generation.images.map((image) => [image.width, image.height])).toEqual(
			Array(4).fill([1344, 768]),
		);
		expect(JSON.parse(generation.api_id ?? "{}")).toMatchObject({ provider: "replicate" });
		const [create] = fake.requests();
		// The random seed drawn at creation is the one sent, and the one recorded.
		expect(poll.settings.seed).toEqual(expect.any(Number));
		expect(create?.body).toEqual({
			input: {
				prompt: "a lighthouse at dusk",
				aspect_ratio: "16:9",
				num_outputs: 4,
				seed: poll.settings.seed,
			},
		});
		const files = fake.requests().filter((request) => request.path.startsWith("/files/"));
		expect(files.map((request) => request.authorization)).toEqual(Array(4).fill(undefined));
	});

	it("retries a throttled create and still completes, with one prediction made", async () => {
		const { fake, client } = await startWorld();
		fake.fail("create", "rate-limited", { times: 1 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({ status: "completed" });
		expect(fake.createCount()).toBe(2);
		const generation = await readGeneration(client, created.id);
		expect(JSON.parse(generation.api_id ?? "{}").predictions).toHaveLength(1);
	});

	it("shows a refused prompt as such, and does not retry it", async () => {
		const { fake, client } = await startWorld();
		const created = await requestGeneration(client, "something forbidden", "--ar 1:1");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({
			status: "failed",
			results: [],
			message: "The provider refused this prompt",
		});
		expect(fake.createCount()).toBe(1);
	});

	it("cancels the prediction when the generation is deleted mid-way", async () => {
		const { fake, client } = await startWorld({ startingMs: 3_600_000 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		const started = await deleteWhenStarted(client, created.id);
		const predictionId = JSON.parse(started.api_id ?? "{}").predictions[0].id;
		await expect
			.poll(() =>
				fake
					.requests()
					.some((request) => request.path === `/v1/predictions/${predictionId}/cancel`),
			)
			.toBe(true);
	});
});

describe("a Replicate generation's progress", () => {
	it("is starting while Replicate starts the prediction, then running with the step its logs show", async () => {
		// Starting until the test moves it on; then processing, held half way through its steps.
		const { fake, client } = await startWorld({ startingMs: NEVER });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1", {
			count: 1,
		});
		const started = await waitUntilStarted(client, created.id);
		const predictionId = JSON.parse(started.api_id ?? "{}").predictions[0].id;
		const timesAsked = () =>
			fake.requests().filter((request) => request.path === `/v1/predictions/${predictionId}`)
				.length;
		// Replicate has been asked, and says the prediction is starting.
		await expect.poll(timesAsked).toBeGreaterThanOrEqual(1);
		const nothingKnown = {
			position: null,
			percent: null,
			step: null,
			steps: null,
			previewUrl: null,
		};
		expect((await readPoll(client, created.pollingUrl)).progress).toEqual({
			stage: "starting",
			...nothingKnown,
		});

		fake.setBehaviour({ startingMs: 0, processingHeldAt: 0.5 });
		// flux-schnell's tqdm line at half way: " 50%|████    | 2/4".
		const running = { stage: "running", position: null, percent: 50, step: 2, steps: 4 };
		await expect
			.poll(async () => (await readPoll(client, created.pollingUrl)).progress)
			.toEqual({ ...running, previewUrl: null });
		expect(await readGeneration(client, created.id)).toMatchObject({
			status: "running",
			progress: running,
		});

		fake.setBehaviour({ processingHeldAt: null, processingMs: 0 });
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished).toMatchObject({ status: "completed", progress: null });
		expect(finished.results).toHaveLength(1);
	});
});
