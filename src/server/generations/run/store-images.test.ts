import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../../storage/local-storage";
import type { Storage } from "../../storage/storage";
import { DISPLAY_LONG_SIDE, storeGenerationImage, THUMBNAIL_LONG_SIDE } from "./store-images";

let folder: string;
let storage: Storage;

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "atelier-store-images-"));
	storage = createLocalStorage(folder);
});
afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** A PNG of `width` x `height` with noise in it, so it weighs what a provider's PNG weighs. */
function createNoisyPng(width: number, height: number): Promise<Buffer> {
	return sharp({
		create: {
			width,
			height,
			channels: 3,
			background: "#6d28d9",
			noise: { type: "gaussian", mean: 128, sigma: 40 },
		},
	})
		.png()
		.toBuffer();
}

async function readStored(key: string) {
	const object = await storage.get(key);
	if (!object) throw new Error(`nothing stored at ${key}`);
	return { object, metadata: await sharp(object.data).metadata() };
}

describe("storing a generation's image", () => {
	it("keeps the original and makes a WebP display copy of at most 1600 px and a thumbnail beside it", async () => {
		const original = await createNoisyPng(2400, 1600);

		const stored = await storeGenerationImage(storage, "generations/g1/run1/", 2, original);

		expect(stored).toMatchObject({
			key: "generations/g1/run1/2.png",
			contentType: "image/png",
			width: 2400,
			height: 1600,
			displayKey: "generations/g1/run1/2-display.webp",
			displayWidth: DISPLAY_LONG_SIDE,
			displayHeight: 1067,
			thumbnailKey: "generations/g1/run1/2-thumb.webp",
			thumbnailWidth: THUMBNAIL_LONG_SIDE,
			thumbnailHeight: 256,
		});
		const kept = await readStored(stored.key);
		expect(Buffer.compare(kept.object.data, original)).toBe(0);
		const display = await readStored(stored.displayKey ?? "");
		expect(display.object.contentType).toBe("image/webp");
		expect([display.metadata.format, display.metadata.width, display.metadata.height]).toEqual([
			"webp",
			1600,
			1067,
		]);
		// What the screens load is a fraction of what the provider sent.
		expect(display.object.data.length).toBeLessThan(original.length / 2);
		const thumbnail = await readStored(stored.thumbnailKey);
		expect([thumbnail.metadata.format, thumbnail.metadata.width]).toEqual(["webp", 384]);
	});

	it("never enlarges: an image smaller than 1600 px gets a display copy of its own size", async () => {
		const original = await createNoisyPng(768, 1024);

		const stored = await storeGenerationImage(storage, "generations/g2/run1/", 0, original);

		expect([stored.displayWidth, stored.displayHeight]).toEqual([768, 1024]);
		const display = await readStored(stored.displayKey ?? "");
		expect([display.metadata.format, display.metadata.width, display.metadata.height]).toEqual([
			"webp",
			768,
			1024,
		]);
		expect([stored.thumbnailWidth, stored.thumbnailHeight]).toEqual([288, 384]);
	});
});
