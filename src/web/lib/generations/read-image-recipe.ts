// Reads the recipe of an image a person drops or chooses. Import it with import() where it is
// needed: it brings the readers of three image formats, which the first page has no use for
// (docs/decisions/005-first-load-budget.md).
import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { readRecipeFromImage } from "../../../shared/image-recipe/image-recipe-files";

/**
 * The most of a file read, in bytes. A generated image is far smaller; a recipe past this point
 * of a larger file (WebP keeps XMP last) is not found, and nothing larger is held in memory.
 */
export const MAX_RECIPE_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The recipe an image file carries (PNG, JPEG or WebP: A1111's `parameters` text or Atelier's
 * XMP), or null for a file without one, another kind of file, or one the browser cannot read.
 */
export async function readImageRecipe(file: Blob): Promise<ImageRecipe | null> {
	let bytes: Uint8Array;
	try {
		bytes = new Uint8Array(await file.slice(0, MAX_RECIPE_FILE_BYTES).arrayBuffer());
	} catch {
		// The file went away or may not be read (a folder, a file removed since it was chosen).
		return null;
	}
	return readRecipeFromImage(bytes);
}
