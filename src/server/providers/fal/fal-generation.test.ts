import { describe, expect, it, onTestFinished } from "vitest";
import { FAKE_FAL_KEY, type FakeFalBehaviour, startFakeFal } from "../../testing/fakes/fal";
import {
	deleteWhenStarted,
	readGeneration,
	readPoll,
	requestGeneration,
	startServerWithProvider,
	waitForFinish,
	waitUntilStarted,
} from "../../testing/generation-kit";
import { createFalProvider } from "./fal-provider";

const NEVER = 3_600_000;

async function startWorld(behaviour: Partial<FakeFalBehaviour> = {}) {
	const fake = await startFakeFal({ behaviour: { queueMs: 0, progressMs: 50, ...behaviour } });
	onTestFinished(() => fake.stop());
	const { client } = await startServerWithProvider(
		createFalProvider({ apiKey: FAKE_FAL_KEY, queueUrl: fake.queueUrl }),
	);
	return { fake, client };
}

describe("fal through the worker", () => {
	it("stores four images in the chosen ratio, read from the CDN without the key", async () => {
		const { fake, client } = await startWorld();
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 3:2");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({ status: "completed" });
		const generation = await readGeneration(client, created.id);
		expect(generation.images.map((image) => [image.width, image.height])).toEqual(
			Array(4).fill([1248, 832]),
		);
		const files = fake.requests().filter((request) => request.path.startsWith("/files/"));
		expect(files.map((request) => request.authorization)).toEqual(Array(4).fill(undefined));
	});

	it("fails with the model's own error when COMPLETED carries one", async () => {
		const { client } = await startWorld({ outcome: "runner-error" });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({
			status: "failed",
			results: [],
			message: "Generation failed",
		});
	});

	it("cancels the queued request when the generation is deleted", async () => {
		const { fake, client } = await startWorld({ queueMs: 3_600_000 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		await deleteWhenStarted(client, created.id);
		await expect.poll(() => fake.requests().some((request) => request.method === "PUT")).toBe(true);
	});
});

describe("a fal generation's progress", () => {
	it("shows fal's queue position while it waits there, then the step its logs show", async () => {
		// Both wait in fal's queue until the test moves them on; then in progress, held half way.
		const { fake, client } = await startWorld({ queueMs: NEVER });
		const first = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1", {
			count: 1,
		});
		await waitUntilStarted(client, first.id);
		const second = await requestGeneration(client, "a harbour at dawn", "--ar 1:1", { count: 1 });
		await waitUntilStarted(client, second.id);

		// Running in Atelier (two workers), queued at fal: the second behind the first.
		const atFal = (position: number) => ({
			stage: "queued",
			position,
			percent: null,
			step: null,
			steps: null,
			previewUrl: null,
		});
		await expect
			.poll(async () => (await readPoll(client, second.pollingUrl)).progress)
			.toEqual(atFal(1));
		expect(await readPoll(client, first.pollingUrl)).toMatchObject({
			status: "running",
			progress: atFal(0),
		});
		expect(await readGeneration(client, second.id)).toMatchObject({
			status: "running",
			progress: atFal(1),
		});

		fake.setBehaviour({ queueMs: 0, progressHeldAt: 0.5 });
		// The model's tqdm line at half way: "50%|█████     | 14/28".
		const running = { stage: "running", position: null, percent: 50, step: 14, steps: 28 };
		await expect
			.poll(async () => (await readPoll(client, second.pollingUrl)).progress)
			.toEqual({ ...running, previewUrl: null });
		expect(await readGeneration(client, second.id)).toMatchObject({ progress: running });

		fake.setBehaviour({ progressHeldAt: null, progressMs: 0 });
		for (const created of [first, second]) {
			expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({
				status: "completed",
				progress: null,
			});
		}
	});
});
