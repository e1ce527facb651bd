import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	GenerationPageSchema,
} from "../../shared/generations/generations";
import { ModelsResponseSchema } from "../../shared/generations/models";
import { createLocalProvider, LOCAL_CAPABILITIES } from "../providers/local/local-provider";
import type { ImageProvider } from "../providers/types";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { createModelCatalogue, modelFromProvider } from "./model-catalogue";

/**
 * Models of the offline engine: a narrowed quick one, the default, and one that takes an image but
 * no reference strength (as OpenAI's edits), the engine under another name.
 */
function createModels() {
	const engine = createLocalProvider({ delayMs: 0 });
	const withoutStrength: ImageProvider = {
		...createLocalProvider({ delayMs: 0 }),
		name: "edits",
		capabilities: { ...LOCAL_CAPABILITIES, referenceStrength: false },
	};
	return createModelCatalogue(
		[
			modelFromProvider(engine, {
				id: "sketch",
				label: "Quick sketch",
				description: "Two small drafts",
				pricePerImage: 0.01,
				counts: [1, 2],
				ratios: ["--ar 1:1", "--ar 16:9"],
				seed: false,
				negativePrompt: false,
				imageInput: false,
				upscale: [2],
			}),
			modelFromProvider(engine, { id: "poster", label: "Poster" }),
			modelFromProvider(withoutStrength, {
				id: "edits",
				label: "Edits",
				ratios: ["--ar 1:1"],
				counts: [1],
				seed: false,
				negativePrompt: false,
				upscale: [],
				outpaint: false,
			}),
		],
		"poster",
	);
}

describe.each(availableDatabaseKinds())("choosing a model (%s)", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, { models: createModels() });
	});
	afterAll(() => server.close());

	it("shows anyone the models as people may see them, and no more", async () => {
		const response = await new TestClient(server).request("/api/models");
		expect(response.status).toBe(200);
		const json: unknown = await response.json();
		const answer = ModelsResponseSchema.parse(json);
		expect(answer).toEqual({
			defaultModelId: "poster",
			preferredModelId: null,
			models: [
				{
					id: "sketch",
					label: "Quick sketch",
					description: "Two small drafts",
					pricePerImage: 0.01,
					ratios: ["--ar 1:1", "--ar 16:9"],
					counts: [1, 2],
					seed: false,
					negativePrompt: false,
					qualities: [],
					textToImage: true,
					imageInput: false,
					referenceStrength: false,
					upscale: [2],
					upscaleResamples: true,
					// No image input: no region either.
					mask: false,
					outpaint: false,
				},
				{
					id: "poster",
					label: "Poster",
					// The offline engine's own description, with what its upscale is.
					description:
						"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
					pricePerImage: null,
					ratios: ["--ar 1:1", "--ar 3:2", "--ar 16:9", "--ar 21:9", "--ar 2:3", "--ar 9:16"],
					counts: [1, 2, 3, 4],
					seed: true,
					negativePrompt: true,
					qualities: [],
					textToImage: true,
					imageInput: true,
					referenceStrength: true,
					upscale: [2, 4],
					upscaleResamples: true,
					mask: true,
					outpaint: true,
				},
				{
					id: "edits",
					label: "Edits",
					description: null,
					pricePerImage: null,
					ratios: ["--ar 1:1"],
					counts: [1],
					seed: false,
					negativePrompt: false,
					qualities: [],
					textToImage: true,
					imageInput: true,
					// It decides by itself how far to move from the image, as OpenAI's edits do.
					referenceStrength: false,
					upscale: [],
					upscaleResamples: false,
					// Its entry turned Expand off; Edit region stays.
					mask: true,
					outpaint: false,
				},
			],
		});
		// Nothing of the provider (its name, options or addresses) is sent.
		expect(JSON.stringify(json)).not.toMatch(/provider|local|delay/);
	});

	it("makes a generation with the chosen model and count, and says so everywhere", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/generations", {
			method: "POST",
			json: { prompt: "A red fox in snow", aspectRatio: "--ar 16:9", model: "sketch", count: 2 },
		});
		expect(response.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await response.json());
		if (!created.success) throw new Error(created.error.message);
		const expectedSettings = { count: 2, seed: null, negativePrompt: null, quality: null };
		expect(created.model).toEqual({ id: "sketch", label: "Quick sketch" });
		expect(created.settings).toEqual(expectedSettings);

		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll).toMatchObject({
			status: "completed",
			model: { id: "sketch", label: "Quick sketch" },
			settings: expectedSettings,
		});
		expect(poll.results).toHaveLength(2);
		const generation = await readGeneration(client, created.id);
		expect(generation.model).toEqual({ id: "sketch", label: "Quick sketch" });
		expect(generation.settings).toEqual(expectedSettings);
		expect(generation.images).toHaveLength(2);

		// The history names the model too, can be filtered by it, and the choice is remembered.
		const page = async (query: string) =>
			GenerationPageSchema.parse(await (await client.request(`/api/generations${query}`)).json());
		expect((await page("?model=sketch")).items.map((item) => item.id)).toEqual([created.id]);
		expect((await page("?model=poster")).items).toEqual([]);
		expect((await page("?model=")).items.map((item) => item.model.label)).toEqual(["Quick sketch"]);
		const models = ModelsResponseSchema.parse(await (await client.request("/api/models")).json());
		expect(models.preferredModelId).toBe("sketch");
	});

	it("uses the default model with all its images when the request names none", async () => {
		const { client } = await createTestUser(server);
		const created = await requestGeneration(client, "A lighthouse", "--ar 1:1");
		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll.model).toEqual({ id: "poster", label: "Poster" });
		expect(poll.settings.count).toBe(4);
		expect(poll.results).toHaveLength(4);
	});

	it.each([
		[{ model: "midjourney" }, 'model "midjourney" is not offered'],
		[{ model: 7 }, "model must be the id of a model"],
		[{ model: "sketch", count: 4 }, "count must be one of 1, 2 for this model"],
		[{ count: 5 }, "count must be a whole number from 1 to 4"],
		[{ count: 1.5 }, "count must be a whole number from 1 to 4"],
		[
			{ seed: 4294967296 },
			"seed must be a whole number from 0 to 4294967295, or -1 for a random seed",
		],
		[{ seed: -2 }, "seed must be a whole number from 0 to 4294967295, or -1 for a random seed"],
		[{ seed: "12" }, "seed must be a whole number from 0 to 4294967295, or -1 for a random seed"],
		[{ model: "sketch", seed: 12 }, "seed is not offered by this model"],
		[{ model: "sketch", negativePrompt: "birds" }, "negativePrompt is not offered by this model"],
		[{ negativePrompt: "x".repeat(501) }, "Negative prompt must be 500 characters or less"],
		[{ negativePrompt: "<script>alert(1)</script>" }, "Negative prompt contains invalid content"],
		[{ quality: "high" }, "quality is not offered by this model"],
		[{ quality: "ultra" }, "quality must be one of low, medium, high"],
		[
			{ model: "sketch", aspectRatio: "--ar 9:16" },
			"aspectRatio must be one of --ar 1:1, --ar 16:9 for this model",
		],
	])("refuses %j, naming the field, and records nothing", async (settings, message) => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/generations", {
			method: "POST",
			json: { prompt: "A lighthouse", aspectRatio: "--ar 1:1", ...settings },
		});
		expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(message);
		const page = GenerationPageSchema.parse(
			await (await client.request("/api/generations")).json(),
		);
		expect(page.total).toBe(0);
	});

	it("takes -1, null or nothing as a random seed where the model has none to offer", async () => {
		const { client } = await createTestUser(server);
		for (const seed of [-1, null]) {
			const created = await requestGeneration(client, "A lighthouse", "--ar 1:1", {
				model: "sketch",
				count: 1,
				seed,
			});
			expect((await waitForFinish(client, created.pollingUrl)).settings.seed).toBeNull();
		}
	});
});
