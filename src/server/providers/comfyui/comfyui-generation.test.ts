import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { GenerationPageSchema } from "../../../shared/generations/generations";
import { createModelCatalogue, modelFromProvider } from "../../models/model-catalogue";
import { DEFAULT_RUN_SETTINGS } from "../../server";
import { expectErrorEnvelope } from "../../testing/error-envelope";
import {
	type FakeComfyUi,
	type FakeComfyUiBehaviour,
	startFakeComfyUi,
} from "../../testing/fakes/comfyui";
import {
	deleteWhenStarted,
	readGeneration,
	requestGeneration,
	startServerWithProvider,
	waitForFinish,
	waitUntilStarted,
} from "../../testing/generation-kit";
import { availableDatabaseKinds } from "../../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../../testing/test-server";
import { PROVIDER_MESSAGES } from "../shared/provider-messages";
import { createComfyUiProvider } from "./comfyui-provider";
import type { ComfyWorkflow } from "./comfyui-workflow";

// A workflow on an API node whose seed stops at 2^31 - 1 (IdeogramV1 in ComfyUI 0.3.64).
const IDEOGRAM_WORKFLOW: ComfyWorkflow = {
	"1": { class_type: "EmptyImage", inputs: { width: 512, height: 512, batch_size: 1, color: 0 } },
	"2": { class_type: "IdeogramV1", inputs: { prompt: "", turbo: false, seed: 0, num_images: 1 } },
	"3": { class_type: "SaveImage", inputs: { filename_prefix: "ideogram", images: ["2", 0] } },
};

async function startWorld(behaviour: Partial<FakeComfyUiBehaviour> = {}) {
	const fake = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: 50, ...behaviour } });
	onTestFinished(() => fake.stop());
	const { client } = await startServerWithProvider(createComfyUiProvider({ url: fake.origin }));
	return { fake, client };
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
		if (poll.message === PROVIDER_MESSAGES.unreachableRetrying && !cameBack) {
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
		const retrying = messages.indexOf(PROVIDER_MESSAGES.unreachableRetrying);
		expect(messages.slice(retrying)).toEqual([PROVIDER_MESSAGES.unreachableRetrying, null]);
		expect(fake.submittedWorkflows()).toHaveLength(1);
	});

	it("fails as before when ComfyUI comes back restarted, having forgotten the prompt", async () => {
		const { finished, messages } = await followThroughOutage((fake) => fake.restart());
		expect(messages).toContain(PROVIDER_MESSAGES.unreachableRetrying);
		expect(finished).toMatchObject({
			status: "failed",
			results: [],
			message: "The image service no longer knows this generation",
		});
	});
});

describe.each(availableDatabaseKinds())("comfyui models through the API (%s)", (kind) => {
	let fake: FakeComfyUi;
	let server: TestServer;

	beforeAll(async () => {
		fake = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: 50 } });
		const stock = createComfyUiProvider({ url: fake.origin });
		const ideogram = createComfyUiProvider({
			url: fake.origin,
			workflow: IDEOGRAM_WORKFLOW,
			bindings: {
				prompt: { node: "2", input: "prompt" },
				width: { node: "1", input: "width" },
				height: { node: "1", input: "height" },
				batch: null,
				seed: { node: "2", input: "seed" },
				negativePrompt: null,
			},
		});
		server = await createTestServer(kind, {
			models: createModelCatalogue(
				[
					modelFromProvider(stock, { id: "sd15", label: "SD 1.5" }),
					modelFromProvider(ideogram, { id: "ideogram", label: "Ideogram" }),
				],
				"sd15",
			),
			run: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 20, retryDelayMs: 50, timeoutMs: 30_000 },
		});
	});
	afterAll(async () => {
		await server.close();
		await fake.stop();
	});

	it("refuses a seed outside the workflow's seed input with a 400 naming seed, recording nothing", async () => {
		const { client } = await createTestUser(server);
		const queuedBefore = fake.submittedWorkflows().length;
		const response = await client.request("/api/generations", {
			method: "POST",
			json: {
				prompt: "A lighthouse",
				aspectRatio: "--ar 1:1",
				model: "ideogram",
				seed: 4_000_000_000,
			},
		});
		expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
			"seed must be a whole number from 0 to 2147483647 for this model",
		);
		const page = GenerationPageSchema.parse(
			await (await client.request("/api/generations")).json(),
		);
		expect(page.total).toBe(0);
		expect(fake.submittedWorkflows()).toHaveLength(queuedBefore);
	});

	it("makes the chosen seed, negative prompt and count, and records them", async () => {
		const { client } = await createTestUser(server);
		const settings = { seed: 4_000_000_000, negativePrompt: "fog", count: 2 };
		const created = await requestGeneration(client, "A lighthouse", "--ar 1:1", settings);
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished).toMatchObject({
			status: "completed",
			settings: { ...settings, quality: null },
		});
		expect(finished.results).toHaveLength(2);
		const workflow = fake.submittedWorkflows().at(-1);
		expect(workflow?.["3"]?.inputs.seed).toBe(4_000_000_000);
		expect(workflow?.["7"]?.inputs.text).toBe("fog");
		expect(workflow?.["5"]?.inputs.batch_size).toBe(2);
	});

	it("draws a random seed the workflow's seed input accepts, and records it", async () => {
		const { client } = await createTestUser(server);
		const created = await requestGeneration(client, "A lighthouse", "--ar 1:1", {
			model: "ideogram",
			count: 1,
		});
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished.status).toBe("completed");
		const seed = finished.settings.seed;
		expect(seed).toBeLessThanOrEqual(2_147_483_647);
		expect(fake.submittedWorkflows().at(-1)?.["2"]?.inputs.seed).toBe(seed);
	});
});

describe("a ComfyUI generation's progress", () => {
	it("shows the sampler's steps and preview frames from ComfyUI's WebSocket while it runs", async () => {
		// It runs until the test lets it finish.
		const { fake, client } = await startWorld({ runningMs: 10 * 60_000 });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1", {
			count: 1,
		});
		await waitUntilStarted(client, created.id);
		await expect.poll(() => fake.socketCount()).toBe(1);
		const [promptId = ""] = fake.promptIds();

		await fake.sendProgress(promptId, 12, 30, true);
		await expect
			.poll(async () => (await readGeneration(client, created.id)).progress?.previewUrl)
			.toMatch(/preview-\d+\.webp$/);
		const running = await readGeneration(client, created.id);
		expect(running.progress).toMatchObject({
			stage: "running",
			percent: 40,
			step: 12,
			steps: 30,
		});
		const preview = await client.request(running.progress?.previewUrl ?? "");
		expect(preview.status).toBe(200);

		fake.setBehaviour({ runningMs: 0 });
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished.status).toBe("completed");
		expect(finished.progress).toBeNull();
		// Removed by the run just after the generation completes.
		await expect
			.poll(async () => (await client.request(running.progress?.previewUrl ?? "")).status)
			.toBe(404);
	});

	it("is followed by polling alone when the WebSocket cannot connect", async () => {
		const { client } = await startWorld({ runningMs: 200, steps: 3, isWebSocketOpen: false });
		const created = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished.status).toBe("completed");
		expect(finished.results).toHaveLength(4);
	});
});
