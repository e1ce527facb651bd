import { describe, expect, it, onTestFinished } from "vitest";
import { FAKE_FAL_KEY, type FakeFalBehaviour, startFakeFal } from "../../testing/fakes/fal";
import {
	deleteWhenStarted,
	readGeneration,
	requestGeneration,
	signUp,
	startServerWithProvider,
	waitForFinish,
} from "../../testing/generation-kit";
import { createFalProvider } from "./fal-provider";

async function startWorld(behaviour: Partial<FakeFalBehaviour> = {}) {
	const fake = await startFakeFal({ behaviour: { queueMs: 0, progressMs: 50, ...behaviour } });
	onTestFinished(() => fake.stop());
	const server = await startServerWithProvider(
		createFalProvider({ apiKey: FAKE_FAL_KEY, queueUrl: fake.queueUrl }),
	);
	onTestFinished(() => server.close());
	return { fake, client: await signUp(server) };
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
