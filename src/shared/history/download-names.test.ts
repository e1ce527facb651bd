import { describe, expect, it } from "vitest";
import { imageDownloadName, slugifyPrompt } from "./download-names";

describe("slugifyPrompt", () => {
	it.each([
		["Lighthouse at Dusk", "lighthouse-at-dusk"],
		["  A cat,   on a MAT!!  ", "a-cat-on-a-mat"],
		["Café crème brûlée", "cafe-creme-brulee"],
		["a red fox --ar 16:9", "a-red-fox"],
		["an hourglass --AR 2:3 on a desk, 8k", "an-hourglass-on-a-desk-8k"],
		["a tall tower --aspect 9:16", "a-tall-tower"],
		["✨ 🦊 ✨", "image"],
		["", "image"],
		["日本の城", "image"],
	])("%j → %s", (prompt, slug) => {
		expect(slugifyPrompt(prompt)).toBe(slug);
	});

	it("keeps at most 60 characters, cut between words", () => {
		const slug = slugifyPrompt(
			"an astronaut floating above the earth, volumetric light, highly detailed, cinematic",
		);
		expect(slug).toBe("an-astronaut-floating-above-the-earth-volumetric-light");
		expect(slug.length).toBeLessThanOrEqual(60);
	});

	it("cuts a single word longer than 60 characters", () => {
		expect(slugifyPrompt("x".repeat(80))).toBe("x".repeat(60));
	});
});

describe("imageDownloadName", () => {
	it("numbers images from 1", () => {
		expect(imageDownloadName("Lighthouse at dusk", 1, "png")).toBe("lighthouse-at-dusk-2.png");
	});
});
