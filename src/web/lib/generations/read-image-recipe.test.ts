import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { writePngRecipe, writeWebpRecipe } from "../../../shared/image-recipe/image-recipe-files";
import { MAX_RECIPE_FILE_BYTES, readImageRecipe } from "./read-image-recipe";

const RECIPE: ImageRecipe = {
	prompt: "A red fox in the snow",
	aspectRatio: "--ar 1:1",
	model: { id: "local", label: "Offline engine" },
	count: 4,
	seed: 42,
	negativePrompt: null,
	quality: null,
	width: 16,
	height: 16,
	style: null,
};

function picture() {
	return sharp({ create: { width: 16, height: 16, channels: 3, background: "#336699" } });
}

/** A file as the browser hands it over, which remembers the ranges it was asked for. */
class WatchedFile extends File {
	readonly reads: [number | undefined, number | undefined][] = [];
	override slice(start?: number, end?: number, contentType?: string): Blob {
		this.reads.push([start, end]);
		return super.slice(start, end, contentType);
	}
}

describe("readImageRecipe", () => {
	it("reads the recipe of a dropped PNG and WebP", async () => {
		const png = writePngRecipe(await picture().png().toBuffer(), RECIPE);
		const webp = writeWebpRecipe(await picture().webp().toBuffer(), RECIPE);
		if (!png || !webp) throw new Error("not written");
		expect(await readImageRecipe(new File([png], "fox.png", { type: "image/png" }))).toEqual(
			RECIPE,
		);
		expect(await readImageRecipe(new File([webp], "fox.webp"))).toEqual(RECIPE);
	});

	it("answers null for an image without a recipe and for other files", async () => {
		expect(
			await readImageRecipe(new File([await picture().jpeg().toBuffer()], "a.jpg")),
		).toBeNull();
		expect(await readImageRecipe(new File(["Seed: 1, Size: 8x8"], "notes.txt"))).toBeNull();
		expect(await readImageRecipe(new Blob([]))).toBeNull();
	});

	it("reads no more than its cap of a large file", async () => {
		const png = writePngRecipe(await picture().png().toBuffer(), RECIPE);
		if (!png) throw new Error("not written");
		// The recipe comes first; 21 MB of chunks the reader skips follow it.
		const large = new WatchedFile([png, new Uint8Array(21 * 1024 * 1024)], "large.png");
		expect(await readImageRecipe(large)).toEqual(RECIPE);
		expect(large.reads).toEqual([[0, MAX_RECIPE_FILE_BYTES]]);
	});
});
