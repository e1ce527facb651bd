import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { AspectRatio } from "../../../shared/generations/aspect-ratios";
import { measureImageDifference } from "../../testing/image-data";
import { renderImages } from "./render";

const PROMPT = "An hourglass on a study desk, steampunk, intricate details, 8k";

describe("renderImages", () => {
	it("renders the same bytes for the same prompt and ratio", async () => {
		const input = { prompt: PROMPT, aspectRatio: "--ar 3:2" as const, count: 4 };
		const first = await renderImages(input);
		const second = await renderImages(input);
		expect(first).toHaveLength(4);
		expect(second).toHaveLength(4);
		first.forEach((image, index) => {
			expect(image.data.equals(second[index]?.data ?? Buffer.alloc(0))).toBe(true);
		});
	});

	it("renders four visibly different images", async () => {
		const images = await renderImages({
			prompt: "a quiet forest lake at dawn",
			aspectRatio: "--ar 1:1",
			count: 4,
		});
		expect(images).toHaveLength(4);
		for (let a = 0; a < images.length; a++) {
			for (let b = a + 1; b < images.length; b++) {
				const imageA = images[a];
				const imageB = images[b];
				if (!imageA || !imageB) throw new Error("missing image");
				expect(imageA.data.equals(imageB.data)).toBe(false);
				expect(await measureImageDifference(imageA.data, imageB.data)).toBeGreaterThan(6);
			}
		}
	});

	it("renders different images for different prompts", async () => {
		const [blue] = await renderImages({
			prompt: "An anime boy with blue hair --niji 6",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		const [soldier] = await renderImages({
			prompt: "A woman soldier in a black suit, portrait photoshoot",
			aspectRatio: "--ar 1:1",
			count: 1,
		});
		if (!blue || !soldier) throw new Error("missing image");
		expect(await measureImageDifference(blue.data, soldier.data)).toBeGreaterThan(6);
	});

	it.each([
		["--ar 1:1", 1024, 1024],
		["--ar 3:2", 1024, 683],
		["--ar 16:9", 1024, 576],
		["--ar 21:9", 1024, 439],
		["--ar 2:3", 683, 1024],
		["--ar 9:16", 576, 1024],
	] as const)(
		"renders %s at exactly %i x %i pixels",
		async (aspectRatio: AspectRatio, width, height) => {
			const images = await renderImages({ prompt: "a red fox at sunset", aspectRatio, count: 2 });
			expect(images).toHaveLength(2);
			for (const image of images) {
				const metadata = await sharp(image.data).metadata();
				expect({ width: metadata.width, height: metadata.height }).toEqual({ width, height });
				expect({ width: image.width, height: image.height }).toEqual({ width, height });
			}
		},
	);

	it("returns real JPEG pictures, not flat fills", async () => {
		const images = await renderImages({
			prompt: "neon cyberpunk city at night",
			aspectRatio: "--ar 16:9",
			count: 4,
		});
		for (const image of images) {
			expect(image.contentType).toBe("image/jpeg");
			expect([...image.data.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
			const metadata = await sharp(image.data).metadata();
			expect(metadata.format).toBe("jpeg");
			expect(metadata.channels).toBe(3);
			const { channels } = await sharp(image.data).stats();
			const spread = Math.max(...channels.map((channel) => channel.stdev));
			expect(spread).toBeGreaterThan(12);
		}
	});

	it("renders as many images as asked for", async () => {
		const none = await renderImages({ prompt: PROMPT, aspectRatio: "--ar 1:1", count: 0 });
		const one = await renderImages({ prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 });
		expect(none).toEqual([]);
		expect(one).toHaveLength(1);
	});

	it("renders prompts with no words it knows, and words that name object properties", async () => {
		const images = await renderImages({
			prompt: "constructor __proto__ toString 🦊 ¿qué?",
			aspectRatio: "--ar 2:3",
			count: 4,
		});
		expect(images).toHaveLength(4);
	});
});
