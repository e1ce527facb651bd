// What an image file's recipe (its prompt and settings, written into the file when it was
// downloaded) fills in on the generator. Loaded on demand, when a person drops an image on the
// form or chooses one with "Load settings from image".
import type { AspectRatio } from "../../../shared/aspect-ratios";
import { generatorNoRecipe } from "../../../shared/i18n/messages";
import type { RecipeRegionEdit } from "../../../shared/image-recipe";
import { sanitizePrompt } from "../../../shared/prompt";
import { showToast } from "../../lib/toast";
import type { SettingsPrefill } from "./generation-choice";

export type ImageSettings = {
	prompt: string;
	aspectRatio: AspectRatio | null;
	prefill: SettingsPrefill;
	/** An Edit region or Expand result's generation, whose editor reopens (findRegionEditLink). */
	regionEdit: RecipeRegionEdit | null;
};

/** The settings `file` carries, or null, said in a toast, when it carries none. */
export async function readImageSettings(file: Blob): Promise<ImageSettings | null> {
	const { readImageRecipe } = await import("../../lib/read-image-recipe");
	// A file that cannot be read (not an image, cut short) has no settings to load either.
	const recipe = await readImageRecipe(file).catch(() => null);
	if (!recipe) {
		void showToast("info", generatorNoRecipe());
		return null;
	}
	return {
		prompt: sanitizePrompt(recipe.prompt),
		aspectRatio: recipe.aspectRatio,
		prefill: {
			modelId: recipe.model?.id ?? null,
			count: recipe.count,
			seed: recipe.seed,
			negativePrompt: recipe.negativePrompt ? sanitizePrompt(recipe.negativePrompt) : null,
			quality: recipe.quality,
			styleId: recipe.style?.id ?? null,
		},
		regionEdit: recipe.regionEdit ?? null,
	};
}

/**
 * Where a dropped Edit region or Expand result reopens: the editor on its source with its
 * recorded mask or frame, as its Use settings does; null when that generation cannot be read (not
 * the person's, or deleted) or its source is gone, and the generator's filled settings stay.
 */
export async function findRegionEditLink(regionEdit: RecipeRegionEdit): Promise<string | null> {
	const [{ fetchGeneration }, { buildReopenEditorLink }] = await Promise.all([
		import("../../lib/generations-requests"),
		import("../../lib/image-actions"),
	]);
	const generation = await fetchGeneration(regionEdit.generationId).catch(() => null);
	return generation ? buildReopenEditorLink(generation) : null;
}
