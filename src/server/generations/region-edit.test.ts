import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GenerationSchema } from "../../shared/generations/generation-responses";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createLocalProvider, LOCAL_CAPABILITIES } from "../providers/local/local-provider";
import type { ImageProvider } from "../providers/types";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readZip } from "../testing/read-zip";
import {
	compare,
	HOLE,
	isInHole,
	make,
	picture,
	post,
	readBytes,
	rectangleMask,
	rgb,
	SOURCE_SIZE,
	upload,
} from "../testing/region-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestServer,
} from "../testing/test-server";

/**
 * A provider that repaints every pixel, as GPT image models do whatever the mask says: one flat
 * magenta image at a size of its own. What Atelier stores of it outside the mask must be the
 * source's.
 */
function createWholeImagePainter(): ImageProvider {
	const engine = createLocalProvider({ delayMs: 0 });
	return {
		...engine,
		name: "painter",
		capabilities: { ...LOCAL_CAPABILITIES, maxRegionPixels: 200_000 },
		async check(job) {
			const count = job.input.count;
			const data = await sharp({
				create: { width: 700, height: 500, channels: 3, background: "#ff00ff" },
			})
				.png()
				.toBuffer();
			return {
				status: "completed",
				images: Array.from({ length: count }, () => ({
					kind: "bytes" as const,
					data,
					contentType: "image/png",
				})),
			};
		},
	};
}

function createCatalogue() {
	const plain: ImageProvider = {
		...createLocalProvider({ delayMs: 0 }),
		name: "plain",
		capabilities: { ...LOCAL_CAPABILITIES, mask: false, outpaint: false },
	};
	return createModelCatalogue(
		[
			modelFromProvider(createLocalProvider({ delayMs: 0 }), { id: "local", label: "Offline" }),
			modelFromProvider(plain, { id: "plain", label: "No regions" }),
			modelFromProvider(createWholeImagePainter(), { id: "painter", label: "Whole image" }),
			modelFromProvider(createWholeImagePainter(), {
				id: "raw-painter",
				label: "Whole image, kept as made",
				keepUnmasked: false,
			}),
		],
		"local",
	);
}

const isOutsideHole = (x: number, y: number) => !isInHole(x, y);

describe.each(availableDatabaseKinds())("Edit region and Expand on %s", (kind) => {
	let server: TestServer;
	let person: Awaited<ReturnType<typeof createTestUser>>;
	let source: Buffer;
	let reference: { uploadId: string };
	let mask: { uploadId: string };

	beforeAll(async () => {
		server = await createTestServer(kind, {
			models: createCatalogue(),
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
			run: { providerPollMs: 20 },
		});
		person = await createTestUser(server);
		source = await picture(SOURCE_SIZE.width, SOURCE_SIZE.height);
		reference = await upload(person.client, source);
		mask = await upload(person.client, await rectangleMask(SOURCE_SIZE, HOLE));
	});
	afterAll(async () => {
		await server.close();
	});

	it.each([
		["the offline engine", "local"],
		["a provider that repaints the whole image", "painter"],
	])(
		"repaints only the masked region with %s: every pixel outside it is the source's",
		async (_name, model) => {
			const edited = await make(person.client, {
				prompt: "a red door",
				action: "edit-region",
				reference,
				mask,
				model,
				count: 1,
			});
			expect(edited).toMatchObject({
				parent: { action: "edit-region", upload: true },
				region: {
					sourceUrl: `/api/generations/${edited.id}/source`,
					maskUrl: `/api/generations/${edited.id}/mask`,
					frame: null,
				},
			});
			const result = await readBytes(person.client, edited.images[0]?.url ?? "");
			const { keptMax, changedMean } = await compare(result, source, isOutsideHole);
			expect(keptMax).toBeLessThanOrEqual(2);
			expect(changedMean).toBeGreaterThan(10);
			// Its before: its own copy of the source, and the mask it was made with.
			expect((await readBytes(person.client, edited.region?.sourceUrl ?? "")).equals(source)).toBe(
				true,
			);
			const kept = await rgb(await readBytes(person.client, edited.region?.maskUrl ?? ""));
			expect([kept.info.width, kept.info.height]).toEqual([SOURCE_SIZE.width, SOURCE_SIZE.height]);
		},
	);

	it("names the upload an edit was made from while the server holds it, and says nothing of it once it is gone", async () => {
		const own = await upload(person.client, source);
		const edited = await make(person.client, {
			prompt: "a blue door",
			action: "edit-region",
			reference: own,
			mask,
			count: 1,
		});
		expect(edited.parent).toEqual({ action: "edit-region", upload: true, uploadId: own.uploadId });
		// The upload goes (as with its account): the edit no longer names it.
		await server.database.db.deleteFrom("uploads").where("id", "=", own.uploadId).execute();
		const response = await person.client.request(`/api/generations/${edited.id}`);
		const again = GenerationSchema.parse(await response.json());
		expect(again.parent).toEqual({ action: "edit-region", upload: true });
	});

	it("stores the provider's image as it made it where the model's entry turns keepUnmasked off", async () => {
		const edited = await make(person.client, {
			prompt: "a red door",
			action: "edit-region",
			reference,
			mask,
			model: "raw-painter",
			count: 1,
		});
		const result = await readBytes(person.client, edited.images[0]?.url ?? "");
		const metadata = await sharp(result).metadata();
		expect([metadata.width, metadata.height]).toEqual([700, 500]);
	});

	it("refuses a mask that is not a PNG, not the source's size, or empty, and a model that cannot, naming the field", async () => {
		const jpeg = await upload(
			person.client,
			await sharp(await rectangleMask(SOURCE_SIZE, HOLE))
				.jpeg()
				.toBuffer(),
			"image/jpeg",
		);
		const small = await upload(
			person.client,
			await rectangleMask({ width: 120, height: 80 }, { left: 0, top: 0, width: 10, height: 10 }),
		);
		const black = await upload(
			person.client,
			await sharp({ create: { ...SOURCE_SIZE, channels: 3, background: "#000" } })
				.png()
				.toBuffer(),
		);
		// White but fully transparent: the alpha multiplies it to nothing.
		const clear = await upload(
			person.client,
			await sharp({
				create: { ...SOURCE_SIZE, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } },
			})
				.png()
				.toBuffer(),
		);
		const body = { prompt: "a red door", action: "edit-region", reference };
		const cases: [Record<string, unknown>, RegExp][] = [
			[{ ...body, mask: jpeg }, /^mask must be a PNG image/],
			[{ ...body, mask: small }, /^mask must be 240 × 160 pixels, the reference's size/],
			[{ ...body, mask: black }, /^mask is empty/],
			[{ ...body, mask: clear }, /^mask is empty/],
			[body, /^mask is required for edit-region/],
			[{ ...body, mask, model: "plain" }, /^mask is not taken by model "plain"/],
			[{ ...body, mask, strength: 0.5 }, /^strength is not taken by edit-region/],
			[{ ...body, action: "edit", mask }, /^mask is only taken by edit-region/],
		];
		for (const [request, message] of cases) {
			const response = await post(person.client, request);
			expect(response.status).toBe(400);
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toMatch(message);
		}
	});

	it("answers 404 for someone else's mask or reference", async () => {
		const other = await createTestUser(server);
		const theirs = await upload(other.client, await rectangleMask(SOURCE_SIZE, HOLE));
		const theirReference = await upload(other.client, source);
		for (const request of [
			{ prompt: "x", action: "edit-region", reference, mask: theirs },
			{ prompt: "x", action: "edit-region", reference: theirReference, mask },
			{ prompt: "x", action: "expand", reference: theirReference, expand: { left: 0.5 } },
		]) {
			const response = await post(person.client, request);
			expect(response.status).toBe(404);
		}
	});

	it("expands a square to 16:9, the source centred and kept, the new area painted", async () => {
		const square = await picture(300, 300);
		const squareUpload = await upload(person.client, square);
		const expanded = await make(person.client, {
			prompt: "a wide meadow",
			action: "expand",
			reference: squareUpload,
			expand: { aspectRatio: "--ar 16:9" },
			count: 1,
		});
		const frame = {
			width: 533,
			height: 300,
			left: 116,
			top: 0,
			sourceWidth: 300,
			sourceHeight: 300,
		};
		expect(expanded).toMatchObject({
			aspect_ratio: "--ar 16:9",
			parent: { action: "expand", upload: true },
			region: { maskUrl: null, frame },
			images: [{ width: 533, height: 300 }],
		});
		const result = await readBytes(person.client, expanded.images[0]?.url ?? "");
		const inner = await sharp(result)
			.extract({ left: 116 + 8, top: 0, width: 300 - 16, height: 300 })
			.png()
			.toBuffer();
		const sourceInner = await sharp(square)
			.extract({ left: 8, top: 0, width: 300 - 16, height: 300 })
			.png()
			.toBuffer();
		expect((await compare(inner, sourceInner, () => true)).keptMax).toBeLessThanOrEqual(2);
	});

	it("expands by fractions of each side, refuses one that adds nothing, and scales a frame down to the model's pixel limit", async () => {
		const widened = await make(person.client, {
			prompt: "more sky",
			action: "expand",
			reference,
			expand: { left: 0.5, top: 0.25 },
			count: 1,
		});
		expect(widened.region?.frame).toEqual({
			width: 360,
			height: 200,
			left: 120,
			top: 40,
			sourceWidth: 240,
			sourceHeight: 160,
		});
		for (const [expand, message] of [
			[{ aspectRatio: "--ar 3:2" }, /^expand adds nothing: the image is already 3:2/],
			[{ left: 0, right: 0 }, /^expand adds nothing/],
		] as const) {
			const response = await post(person.client, {
				prompt: "x",
				action: "expand",
				reference,
				expand,
			});
			expect(response.status).toBe(400);
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toMatch(message);
		}
		const refused = await post(person.client, {
			prompt: "x",
			action: "expand",
			reference,
			expand: { left: 2 },
		});
		expect(refused.status).toBe(400);
		expect(await expectErrorEnvelope(refused, 400, "VALIDATION_ERROR")).toMatch(/expand/);
		const plain = await post(person.client, {
			prompt: "x",
			action: "expand",
			reference,
			expand: { left: 1 },
			model: "plain",
		});
		expect(await expectErrorEnvelope(plain, 400, "VALIDATION_ERROR")).toMatch(
			/^expand is not taken by model "plain"/,
		);
		// The painter takes at most 200,000 pixels: 480 × 480 would be 230,400.
		const large = await picture(480, 320);
		const limited = await make(person.client, {
			prompt: "x",
			action: "expand",
			reference: await upload(person.client, large),
			expand: { top: 0.25, bottom: 0.25 },
			model: "painter",
			count: 1,
		});
		const frame = limited.region?.frame;
		expect(frame && frame.width * frame.height).toBeLessThanOrEqual(200_000);
		expect(frame).toMatchObject({ width: 447, height: 447, sourceWidth: 447, sourceHeight: 298 });
		expect(limited.images[0]).toMatchObject({ width: 447, height: 447 });
	});

	it("keeps the mask in the generation's folder, the owner's alone, exported with the account and deleted with the generation", async () => {
		const edited = await make(person.client, {
			prompt: "a red door",
			action: "edit-region",
			reference,
			mask,
			count: 1,
		});
		const maskKey = `generations/${edited.id}/mask.png`;
		expect(await server.storage.get(maskKey)).toBeDefined();
		const stranger = await createTestUser(server);
		expect((await stranger.client.request(`/api/generations/${edited.id}/mask`)).status).toBe(404);
		const admin = await createTestAdministrator(server);
		expect((await admin.client.request(`/api/generations/${edited.id}/mask`)).status).toBe(404);

		const exported = await readZip(await readBytes(person.client, "/api/account/export"));
		const folder = [...exported.keys()].find((name) => name.includes(edited.id)) ?? "";
		const prefix = folder.slice(0, folder.lastIndexOf("/") + 1);
		expect(
			exported
				.get(`${prefix}mask.png`)
				?.equals(await readBytes(person.client, edited.region?.maskUrl ?? "")),
		).toBe(true);
		expect(JSON.parse(exported.get(`${prefix}metadata.json`)?.toString() ?? "{}")).toMatchObject({
			action: "edit-region",
			mask: "mask.png",
		});

		const deleted = await person.client.request(`/api/generations/${edited.id}?permanent=true`, {
			method: "DELETE",
		});
		expect(deleted.status).toBe(200);
		expect(await server.storage.get(maskKey)).toBeUndefined();
		expect((await person.client.request(`/api/generations/${edited.id}/mask`)).status).toBe(404);
	});
});

describe.each(availableDatabaseKinds())("a region edit's quotas on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, {
			models: createCatalogue(),
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 1 },
			run: { providerPollMs: 20 },
		});
	});
	afterAll(async () => {
		await server.close();
	});

	it("counts a region edit against the daily limit like any generation, storing nothing when refused", async () => {
		const person = await createTestUser(server);
		const source = await picture(SOURCE_SIZE.width, SOURCE_SIZE.height);
		const reference = await upload(person.client, source);
		const mask = await upload(person.client, await rectangleMask(SOURCE_SIZE, HOLE));
		const body = { prompt: "a red door", action: "edit-region", reference, mask, count: 1 };
		await make(person.client, body);
		const refused = await post(person.client, body);
		expect(refused.status).toBe(429);
		await expectErrorEnvelope(refused, 429, "QUOTA_EXCEEDED");
		const masks: string[] = [];
		for await (const keys of server.storage.listKeys("generations/")) {
			masks.push(...keys.filter((key) => key.endsWith("/mask.png")));
		}
		expect(masks).toHaveLength(1);
	});
});
