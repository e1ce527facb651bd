// The recipe inside PNG, JPEG and WebP files: found by walking the file's chunks or segments, and
// written by adding metadata chunks while every byte of image data is copied as it was. The files
// read may come from anyone (a dropped image), so every length is checked against the bytes there
// are, sizes are capped, and a file that does not parse answers null rather than throwing.
import type { ImageRecipe } from "./image-recipe";
import { detectImageFormat } from "./image-recipe-bytes";
import { readJpegRecipe, writeJpegRecipe } from "./image-recipe-jpeg";
import { readPngRecipe, writePngRecipe } from "./image-recipe-png";
import { readWebpRecipe, writeWebpRecipe } from "./image-recipe-webp";

export { detectImageFormat, type ImageFormat } from "./image-recipe-bytes";
export { writeJpegRecipe } from "./image-recipe-jpeg";
export { writePngRecipe } from "./image-recipe-png";
export { writeWebpRecipe } from "./image-recipe-webp";

/**
 * The recipe an image file carries (PNG, JPEG or WebP), or null: for a file without one, another
 * kind of file, or bytes that do not parse. It never throws, and reads a truncated file as far as
 * it goes.
 */
export function readRecipeFromImage(bytes: Uint8Array): ImageRecipe | null {
	try {
		switch (detectImageFormat(bytes)) {
			case "png":
				return readPngRecipe(bytes);
			case "jpeg":
				return readJpegRecipe(bytes);
			case "webp":
				return readWebpRecipe(bytes);
			default:
				return null;
		}
	} catch {
		// The readers check every length; this is the promise kept should one have been missed.
		return null;
	}
}

/**
 * The image with its recipe written in, its image data byte for byte as it was; null for a file
 * that is not a PNG, JPEG or WebP this can follow (the caller keeps the file as it is).
 */
export function writeRecipeToImage(
	bytes: Uint8Array,
	recipe: ImageRecipe,
): Uint8Array<ArrayBuffer> | null {
	switch (detectImageFormat(bytes)) {
		case "png":
			return writePngRecipe(bytes, recipe);
		case "jpeg":
			return writeJpegRecipe(bytes, recipe);
		case "webp":
			return writeWebpRecipe(bytes, recipe);
		default:
			return null;
	}
}
