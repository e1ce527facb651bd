import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	GenerationSchema,
} from "../../../shared/generations/generations";
import { ModelsResponseSchema } from "../../../shared/generations/models";
import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { readRecipeFromImage } from "../../../shared/image-recipe/image-recipe-files";
import { waitForFinish } from "../../testing/generation-kit";
import { type SeededGeneration, seedGeneration } from "../../testing/history-kit";
import { compressedImageData } from "../../testing/image-data";
import { readZip } from "../../testing/read-zip";
import { make, picture, readBytes, rectangleMask, upload } from "../../testing/region-kit";
import { availableDatabaseKinds } from "../../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../../testing/test-server";

type Person = Awaited<ReturnType<typeof createTestUser>>;

async function download(person: Person, path: string): Promise<Uint8Array> {
	const response = await person.client.request(path);
	expect(response.status).toBe(200);
	return new Uint8Array(await response.arrayBuffer());
}

async function pixelsOf(bytes: Uint8Array): Promise<Buffer> {
	return sharp(bytes).raw().toBuffer();
}

/**
 * The same bytes, compared at once: `toEqual` walks a buffer of megabytes (an image's pixels) one
 * element at a time and takes longer than the test may.
 */
function expectSameBytes(actual: Buffer, expected: Buffer): void {
	expect(actual.equals(expected), `${actual.length} bytes against ${expected.length}`).toBe(true);
}

/** The recipe a seeded generation's images carry: its settings, and the kit's 8-pixel size. */
const SEEDED_RECIPE: ImageRecipe = {
	prompt: "A lighthouse at dusk, café au lait --ar 16:9",
	aspectRatio: "--ar 16:9",
	model: { id: "sketch", label: "Sketch, fast" },
	count: 2,
	seed: 4_294_967_295,
	negativePrompt: "boats, people",
	quality: "high",
	width: 8,
	height: 8,
	style: null,
};

describe.each(availableDatabaseKinds())("the recipe in downloaded images on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	function seedWithSettings(person: Person): Promise<SeededGeneration> {
		return seedGeneration(server, {
			userId: person.userId,
			prompt: SEEDED_RECIPE.prompt,
			aspectRatio: "--ar 16:9",
			modelId: "sketch",
			modelLabel: "Sketch, fast",
			count: 2,
			imageCount: 2,
			seed: 4_294_967_295,
			negativePrompt: "boats, people",
			quality: "high",
		});
	}

	it("writes the generation's settings into a downloaded original; its picture and the stored object stay as they were", async () => {
		const person = await createTestUser(server);
		const generation = await seedWithSettings(person);
		const stored = generation.imageBytes[1] ?? Buffer.alloc(0);

		const downloaded = await download(
			person,
			`/api/generations/${generation.id}/images/1/download`,
		);
		expect(readRecipeFromImage(downloaded)).toEqual(SEEDED_RECIPE);
		expect(downloaded).not.toEqual(new Uint8Array(stored));
		expectSameBytes(compressedImageData(downloaded), compressedImageData(stored));
		expectSameBytes(await pixelsOf(downloaded), await pixelsOf(stored));

		const object = await server.storage.get(generation.images[1]?.key ?? "");
		expect(object && Buffer.from(object.data)).toEqual(stored);
		expect(readRecipeFromImage(stored)).toBeNull();
	});

	it("serves what the screens show (thumbnails, display copies) as stored, without a recipe", async () => {
		const person = await createTestUser(server);
		const generation = await seedWithSettings(person);
		const item = GenerationSchema.parse(
			await (await person.client.request(`/api/generations/${generation.id}`)).json(),
		);
		const image = item.images[0];
		if (!image) throw new Error("the generation has no image");
		const thumbnail = await download(person, image.thumbnailUrl);
		expect(Buffer.from(thumbnail)).toEqual(generation.imageBytes[0]);
		expect(readRecipeFromImage(thumbnail)).toBeNull();
	});

	it("writes the recipe into every image of a ZIP, and the model and settings into generation.json", async () => {
		const person = await createTestUser(server);
		const generation = await seedWithSettings(person);
		const single = await readZip(
			await download(person, `/api/generations/${generation.id}/archive`),
		);
		const names = [...single.keys()].filter((name) => name.endsWith(".png"));
		expect(names).toHaveLength(2);
		for (const [index, name] of names.sort().entries()) {
			const bytes = single.get(name) ?? Buffer.alloc(0);
			expect(readRecipeFromImage(bytes)).toEqual(SEEDED_RECIPE);
			expectSameBytes(
				compressedImageData(bytes),
				compressedImageData(generation.imageBytes[index] ?? Buffer.alloc(0)),
			);
		}
		expect(JSON.parse(single.get("generation.json")?.toString() ?? "")).toMatchObject({
			model: { id: "sketch", label: "Sketch, fast" },
			settings: { count: 2, seed: 4_294_967_295, negativePrompt: "boats, people", quality: "high" },
		});

		const selection = await readZip(
			new Uint8Array(
				await (
					await person.client.request("/api/generations/archive", {
						method: "POST",
						json: { ids: [generation.id] },
					})
				).arrayBuffer(),
			),
		);
		const selected = [...selection.entries()].filter(([name]) => name.endsWith(".png"));
		expect(selected).toHaveLength(2);
		for (const [, bytes] of selected) expect(readRecipeFromImage(bytes)).toEqual(SEEDED_RECIPE);

		// The account export describes the same, and gives back the stored files exactly.
		const exported = await readZip(await download(person, "/api/account/export"));
		const metadata = [...exported.entries()].find(([name]) => name.endsWith("/metadata.json"));
		expect(JSON.parse(metadata?.[1].toString() ?? "")).toMatchObject({
			model: { id: "sketch", label: "Sketch, fast" },
			settings: { count: 2, seed: 4_294_967_295 },
		});
		const exportedImage = [...exported.entries()].find(([name]) => name.endsWith("image-1.png"));
		expect(exportedImage?.[1]).toEqual(generation.imageBytes[0]);

		for (const [index, image] of generation.images.entries()) {
			const object = await server.storage.get(image.key);
			expect(object && Buffer.from(object.data)).toEqual(generation.imageBytes[index]);
		}
	});
});

describe.each(availableDatabaseKinds())("the recipe of an offline engine's image on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	it("carries the settings the generation ran with, the seed used among them", async () => {
		const person = await createTestUser(server);
		const models = ModelsResponseSchema.parse(
			await (await person.client.request("/api/models")).json(),
		);
		const model = models.models.find((candidate) => candidate.id === models.defaultModelId);
		if (!model) throw new Error("no default model");
		// Seed and negative prompt go only where the engine offers them, as the generator sends them.
		const response = await person.client.request("/api/generations", {
			method: "POST",
			json: {
				prompt: "A red fox in the snow",
				aspectRatio: "--ar 3:2",
				count: 2,
				...(model.seed ? { seed: 42 } : {}),
				...(model.negativePrompt ? { negativePrompt: "trees" } : {}),
			},
		});
		expect(response.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await response.json());
		if (!created.success) throw new Error(created.error.message);
		expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
		const generation = GenerationSchema.parse(
			await (await person.client.request(`/api/generations/${created.id}`)).json(),
		);
		expect(generation.images).toHaveLength(2);
		const image = generation.images[1];
		if (!image) throw new Error("no second image");

		const downloaded = await download(person, `/api/generations/${created.id}/images/1/download`);
		expect(readRecipeFromImage(downloaded)).toEqual({
			prompt: "A red fox in the snow",
			aspectRatio: "--ar 3:2",
			model: generation.model,
			count: 2,
			seed: generation.settings.seed,
			negativePrompt: generation.settings.negativePrompt,
			quality: null,
			width: image.width,
			height: image.height,
			style: null,
		});
		if (model.seed) expect(generation.settings.seed).toBe(42);
		const original = await download(person, image.url);
		expect(readRecipeFromImage(original)).toBeNull();
		expectSameBytes(compressedImageData(downloaded), compressedImageData(original));
		expectSameBytes(await pixelsOf(downloaded), await pixelsOf(original));
	});

	it("names, in an Edit region result's file, the generation whose recorded mask reopens the editor", async () => {
		const person = await createTestUser(server);
		const size = { width: 64, height: 48 };
		const sent = await rectangleMask(size, { left: 8, top: 8, width: 24, height: 16 });
		const edited = await make(person.client, {
			prompt: "a red door",
			action: "edit-region",
			reference: await upload(person.client, await picture(size.width, size.height)),
			mask: await upload(person.client, sent),
			count: 1,
		});
		const downloaded = await download(person, `/api/generations/${edited.id}/images/0/download`);
		const recipe = readRecipeFromImage(downloaded);
		expect(recipe?.regionEdit).toEqual({ action: "edit-region", generationId: edited.id });
		// Through that id, the same mask as was painted.
		const reopened = GenerationSchema.parse(
			await (
				await person.client.request(`/api/generations/${recipe?.regionEdit?.generationId}`)
			).json(),
		);
		const mask = await readBytes(person.client, reopened.region?.maskUrl ?? "");
		expect(await sharp(mask).extractChannel(0).raw().toBuffer()).toEqual(
			await sharp(sent).extractChannel(0).raw().toBuffer(),
		);
		// Any other image's recipe names no region edit.
		const plain = await make(person.client, {
			prompt: "a lighthouse",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		const other = await download(person, `/api/generations/${plain.id}/images/0/download`);
		expect(readRecipeFromImage(other)).not.toHaveProperty("regionEdit");
	});
});
