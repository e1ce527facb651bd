import { describe, expect, it } from "vitest";
import { avoidHues, readNegativePrompt, signedHueDistance } from "./negative-prompt";
import { type ComposedImage, composeImages, type RenderInput } from "./render";

/** One image for each of `seeds` seeds, so a claim about "every image" covers many layouts. */
function composeMany(input: Omit<RenderInput, "count" | "seed">, seeds = 40): ComposedImage[] {
	return Array.from({ length: seeds }, (_, seed) =>
		composeImages({ ...input, count: 4, seed }),
	).flat();
}

const RED = 25;

describe("readNegativePrompt", () => {
	it("reads things drawn, scenes, times of day and hues, plurals included", () => {
		const exclusions = readNegativePrompt("Birds, boats, desert, sunset, red and gold");
		expect([...exclusions.elements]).toEqual(["birds", "boat"]);
		expect([...exclusions.scenes]).toEqual(["dunes"]);
		expect([...exclusions.lightings]).toEqual(["dusk"]);
		expect(exclusions.hues).toEqual([RED, 85]);
	});

	it("turns colour strength and lightness the other way", () => {
		const exclusions = readNegativePrompt("vivid, dark");
		expect(exclusions.chroma).toBeLessThan(1);
		expect(exclusions.lightness).toBeGreaterThan(0);
	});

	it("leaves out nothing for words it does not know, or for none", () => {
		for (const text of [null, "", "people, text, watermark, constructor __proto__"]) {
			const exclusions = readNegativePrompt(text);
			expect(exclusions.elements.size + exclusions.scenes.size + exclusions.lightings.size).toBe(0);
			expect(exclusions.hues).toEqual([]);
		}
	});
});

describe("avoidHues", () => {
	it("moves a hue just clear of a left-out hue, to the side it lies on", () => {
		expect(avoidHues(30, [RED])).toBe(70);
		expect(avoidHues(10, [RED])).toBe(-20);
		expect(avoidHues(200, [RED])).toBe(200);
		expect(avoidHues(200, [])).toBe(200);
	});

	it("clears two left-out hues close together", () => {
		const hue = avoidHues(40, [RED, 55]);
		for (const avoided of [RED, 55]) {
			expect(Math.abs(signedHueDistance(hue, avoided))).toBeGreaterThanOrEqual(45);
		}
	});
});

describe("a render with a negative prompt", () => {
	it("draws no birds when birds are left out", () => {
		const prompt = "birds over snowy mountains at noon";
		const withBirds = composeMany({ prompt, aspectRatio: "--ar 16:9" });
		const without = composeMany({ prompt, aspectRatio: "--ar 16:9", negativePrompt: "birds" });
		expect(withBirds.filter((image) => image.elements.includes("birds")).length).toBeGreaterThan(
			20,
		);
		expect(without.filter((image) => image.elements.includes("birds"))).toEqual([]);
		// The same scenes and light: only the birds went.
		expect(without.map((image) => image.plan)).toEqual(withBirds.map((image) => image.plan));
	});

	it("draws no boat, sun or moon when they are left out", () => {
		const input = { prompt: "a sailing boat on the ocean", aspectRatio: "--ar 1:1" } as const;
		const all = composeMany(input);
		const without = composeMany({ ...input, negativePrompt: "boat, sun, moon" });
		for (const element of ["boat", "sun", "moon"] as const) {
			expect(all.some((image) => image.elements.includes(element))).toBe(true);
			expect(without.some((image) => image.elements.includes(element))).toBe(false);
		}
	});

	it("leaves out a scene the prompt names, and mountains from the others", () => {
		const images = composeMany({
			prompt: "snowy mountains and a lake at night",
			aspectRatio: "--ar 3:2",
			negativePrompt: "mountains",
		});
		expect(new Set(images.map((image) => image.plan.kind))).toEqual(new Set(["lake"]));
		expect(images.some((image) => image.elements.includes("mountains"))).toBe(false);
	});

	it("draws some scene when every scene is left out", () => {
		const [image] = composeImages({
			prompt: "a lake",
			aspectRatio: "--ar 1:1",
			count: 1,
			seed: 7,
			negativePrompt:
				"mountains lake forest desert ocean city synthwave space abstract water trees",
		});
		expect(image?.plan.kind).toBe("ribbons");
	});

	it("keeps the time of day it leaves out away", () => {
		const images = composeMany({
			prompt: "a starry night over the desert",
			aspectRatio: "--ar 1:1",
			negativePrompt: "night",
		});
		expect(images.some((image) => image.plan.lighting === "night")).toBe(false);
	});

	it("keeps every main colour clear of a hue it leaves out", () => {
		const input = { prompt: "a red fox in a crimson field", aspectRatio: "--ar 1:1" } as const;
		const mainHues = (image: ComposedImage): number[] => {
			const { look } = image;
			return [look.skyTop, look.skyMiddle, look.horizon, look.light, look.landNear, look.accent]
				.filter((color) => color.c > 0.02)
				.map((color) => color.h);
		};
		const isRed = (hue: number): boolean => Math.abs(signedHueDistance(hue, RED)) < 30;
		const red = composeMany(input).flatMap(mainHues);
		const notRed = composeMany({ ...input, negativePrompt: "red" }).flatMap(mainHues);
		expect(red.filter(isRed).length).toBeGreaterThan(red.length / 4);
		expect(notRed.filter(isRed)).toEqual([]);
	});
});
