import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { VARY_STRENGTHS } from "../../../shared/image-input/image-input";
import { measureImageDifference } from "../../testing/image-data";
import type { InputImage } from "../types";
import { LOCAL_CAPABILITIES } from "./local-provider";
import { type RenderedImage, renderImages } from "./render";

async function renderParent(): Promise<InputImage> {
	const [image] = await renderImages({
		prompt: "a lighthouse on a cliff at dusk",
		aspectRatio: "--ar 3:2",
		count: 1,
		seed: 11,
	});
	if (!image) throw new Error("no image");
	return { data: image.data, contentType: "image/jpeg", width: image.width, height: image.height };
}

function vary(parent: InputImage, strength: number, seed: number): Promise<RenderedImage[]> {
	return renderImages({
		prompt: "a lighthouse on a cliff at dusk",
		aspectRatio: "--ar 3:2",
		count: 2,
		seed,
		image: { kind: "reference", image: parent, strength },
	});
}

describe("the offline engine's image input", () => {
	it("says it takes an image and upscales by 2 and 4", () => {
		expect(LOCAL_CAPABILITIES).toMatchObject({ imageInput: true, upscaleFactors: [2, 4] });
	});

	it("repaints a reference: a subtle variation stays closer to it than a strong one, and both differ from it and from each other", async () => {
		const parent = await renderParent();
		const [subtle] = await vary(parent, VARY_STRENGTHS["vary-subtle"], 42);
		const [strong] = await vary(parent, VARY_STRENGTHS["vary-strong"], 42);
		if (!subtle || !strong) throw new Error("no variation");
		expect([subtle.width, subtle.height]).toEqual([parent.width, parent.height]);
		const subtleDistance = await measureImageDifference(parent.data, subtle.data);
		const strongDistance = await measureImageDifference(parent.data, strong.data);
		expect(subtleDistance).toBeGreaterThan(1);
		expect(strongDistance).toBeGreaterThan(subtleDistance);
		expect(await measureImageDifference(subtle.data, strong.data)).toBeGreaterThan(1);
	});

	it("keeps the reference at strength 0 (its composition, softened) and ignores it at 1", async () => {
		const parent = await renderParent();
		const [kept] = await vary(parent, 0, 7);
		const [free] = await vary(parent, 1, 7);
		const [plain] = await renderImages({
			prompt: "a lighthouse on a cliff at dusk",
			aspectRatio: "--ar 3:2",
			count: 1,
			seed: 7,
		});
		if (!kept || !free || !plain) throw new Error("no image");
		expect(await measureImageDifference(parent.data, kept.data)).toBeLessThan(4);
		expect(await measureImageDifference(plain.data, free.data)).toBeLessThan(4);
	});

	it("repaints the same bytes for the same seed, and other images for another seed", async () => {
		const parent = await renderParent();
		const first = await vary(parent, 0.5, 3);
		const again = await vary(parent, 0.5, 3);
		const other = await vary(parent, 0.5, 4);
		first.forEach((image, index) => {
			expect(image.data.equals(again[index]?.data ?? Buffer.alloc(0))).toBe(true);
		});
		expect(first[0]?.data.equals(other[0]?.data ?? Buffer.alloc(0))).toBe(false);
	});

	it("upscales by resampling to twice and four times the width and height, one image", async () => {
		const parent = await renderParent();
		for (const factor of [2, 4]) {
			const images = await renderImages({
				prompt: "ignored by a resample",
				aspectRatio: "--ar 3:2",
				count: 1,
				seed: null,
				image: { kind: "upscale", image: parent, factor },
			});
			expect(images).toHaveLength(1);
			const metadata = await sharp(images[0]?.data).metadata();
			expect([metadata.width, metadata.height]).toEqual([
				parent.width * factor,
				parent.height * factor,
			]);
			// A resample: the same picture, larger.
			expect(
				await measureImageDifference(parent.data, images[0]?.data ?? new Uint8Array()),
			).toBeLessThan(3);
		}
	});
});
