import type { ImageRecipe } from "../../../shared/image-recipe/image-recipe";
import { writeRecipeToImage } from "../../../shared/image-recipe/image-recipe-files";
import type { GenerationRow, StoredImage } from "../../db/schema";
import { settingsOf } from "../generation-input";

/** How one image of a generation was made, as its row keeps it. */
export function recipeOf(
	row: GenerationRow,
	image: Pick<StoredImage, "width" | "height">,
): ImageRecipe {
	const settings = settingsOf(row);
	return {
		prompt: row.prompt,
		aspectRatio: row.aspect_ratio,
		model: { id: row.model_id, label: row.model_label },
		count: settings.count,
		seed: settings.seed,
		negativePrompt: settings.negativePrompt,
		quality: settings.quality,
		width: image.width,
		height: image.height,
		style:
			row.style_id !== null && row.style_name !== null
				? { id: row.style_id, name: row.style_name }
				: null,
		// Its recorded mask or frame is found through its id (GET /api/generations/:id).
		...(row.action === "edit-region" || row.action === "expand"
			? { regionEdit: { action: row.action, generationId: row.id } }
			: {}),
		originalPrompt: row.original_prompt,
	};
}

/**
 * An original image as it is downloaded: the stored bytes with the generation's recipe written
 * into the file's metadata, its image data untouched. A file the recipe cannot be written into
 * (a GIF or AVIF, or bytes that do not parse) goes out as it is stored: a download never fails
 * for want of its recipe. The stored object itself is never changed.
 */
export function withRecipe(
	data: Uint8Array,
	row: GenerationRow,
	image: Pick<StoredImage, "width" | "height">,
): Uint8Array {
	return writeRecipeToImage(data, recipeOf(row, image)) ?? data;
}
