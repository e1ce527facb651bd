import { describe, expect, it, onTestFinished } from "vitest";
import { type FakeComfyUiBehaviour, startFakeComfyUi } from "../../testing/fakes/comfyui";
import {
	deleteWhenStarted,
	readGeneration,
	requestGeneration,
	signUp,
	startServerWithProvider,
	waitForFinish,
} from "../../testing/generation-kit";
import { createComfyUiProvider } from "./comfyui-provider";

async function startWorld(behaviour: Partial<FakeComfyUiBehaviour> = {}) {
	const fake = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: 50, ...behaviour } });
	onTestFinished(() => fake.stop());
	const server = await startServerWithProvider(createComfyUiProvider({ url: fake.origin }));
	onTestFinished(() => server.close());
	return { fake, client: await signUp(server) };
}

describe("comfyui through the worker", () => {
	it("stores four images of the default workflow in the chosen ratio", async () => {
		const { fake, client } = await startWorld();
		const created = await requestGeneration(client, "a lighthouse at dusk --ar 1:1", "--ar 16:9");
		expect(await waitForFinish(client, created.pollingUrl)).toMatchObject({ status: "completed" });
		const generation = await readGeneration(client, created.id);
		expect(generation.images.map((image) => [image.width, image.height])).toEqual(
			Array(4).fill([896, 504]),
		);
		expect(fake.submittedWorkflows()[0]?.["6"]?.inputs.text).toBe("a lighthouse at dusk");
	});

	it("interrupts the running prompt when the generation is deleted", async () => {
		const { fake, client } = await startWorld({ runningMs: 3_600_000 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		const started = await deleteWhenStarted(client, created.id);
		const [promptId] = JSON.parse(started.api_id ?? "{}").promptIds;
		await expect
			.poll(() =>
				fake
					.requests()
					.some(
						(request) =>
							request.path === "/interrupt" &&
							JSON.stringify(request.body) === JSON.stringify({ prompt_id: promptId }),
					),
			)
			.toBe(true);
	});
});
