import { describe, expect, it, onTestFinished } from "vitest";
import { GENERATION_MESSAGES } from "../../../shared/generation-flow";
import {
	type FakeComfyUi,
	type FakeComfyUiBehaviour,
	startFakeComfyUi,
} from "../../testing/fakes/comfyui";
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

/**
 * Follows a generation whose ComfyUI went offline once its prompt was queued: when the poll says
 * the service is being retried, `whileDown` runs and ComfyUI comes back on the same port.
 */
async function followThroughOutage(whileDown: (fake: FakeComfyUi) => void) {
	const { fake, client } = await startWorld({ runningMs: 500 });
	const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
	await expect.poll(() => fake.submittedWorkflows().length).toBe(1);
	await fake.goOffline();
	const messages: Array<string | null> = [];
	let cameBack: Promise<void> | undefined;
	const finished = await waitForFinish(client, created.pollingUrl, (poll) => {
		if (messages.at(-1) !== poll.message) messages.push(poll.message);
		if (poll.message === GENERATION_MESSAGES.unreachableRetrying && !cameBack) {
			whileDown(fake);
			cameBack = fake.comeBack();
		}
	});
	await cameBack;
	return { fake, finished, messages };
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

	it("waits out an outage, saying the service is being retried, and finishes the same prompt", async () => {
		const { fake, finished, messages } = await followThroughOutage(() => {});
		expect(finished).toMatchObject({ status: "completed", message: null });
		expect(messages).toContain("The image service cannot be reached, retrying");
		const retrying = messages.indexOf(GENERATION_MESSAGES.unreachableRetrying);
		expect(messages.slice(retrying)).toEqual([GENERATION_MESSAGES.unreachableRetrying, null]);
		expect(fake.submittedWorkflows()).toHaveLength(1);
	});

	it("fails as before when ComfyUI comes back restarted, having forgotten the prompt", async () => {
		const { finished, messages } = await followThroughOutage((fake) => fake.restart());
		expect(messages).toContain(GENERATION_MESSAGES.unreachableRetrying);
		expect(finished).toEqual({
			status: "failed",
			results: [],
			message: "The image service no longer knows this generation",
		});
	});
});
