// What an image file's recipe (its prompt and settings, written into the file when it was
// downloaded) fills in on the generator, and the editor an Edit region or Expand result reopens.
// Loaded on demand, when a person drops an image on the form or chooses one with "Load settings
// from image".
import type { AspectRatio } from "../../../../shared/generations/aspect-ratios";
import { generatorNoRecipe } from "../../../../shared/i18n/messages";
import type { RecipeRegionEdit } from "../../../../shared/image-recipe/image-recipe";
import { sanitizePrompt } from "../../../../shared/prompts/prompt";
import { showToast } from "../../../lib/ui/toast";
import type { SettingsPrefill } from "../settings/generation-choice";
import type { ReferenceImageControls } from "./use-reference-image";

/** What of the generator's form an image's settings fill (use-generator-form.ts). */
export type ImageSettingsTarget = {
	setPrompt: (prompt: string) => void;
	setAspectRatio: (aspectRatio: AspectRatio) => void;
	/** The settings asked for, fitted to the models by the settings' controls. */
	askSettings: (prefill: SettingsPrefill) => void;
	promptRef: { current: HTMLTextAreaElement | null };
	navigate: (link: string) => void;
};

type ImageSettings = {
	prompt: string;
	aspectRatio: AspectRatio | null;
	prefill: SettingsPrefill;
	/** An Edit region or Expand result's generation, whose editor reopens (findRegionEditLink). */
	regionEdit: RecipeRegionEdit | null;
};

/**
 * A dropped or chosen image: its prompt, ratio and settings fill the form, when it has them (a
 * toast says when it has none); an Edit region or Expand result reopens its editor, with the same
 * mask or frame. Given the form's `reference` (a drop, where the chosen model takes an image), the
 * image becomes the reference too.
 */
export async function fillFormFromImage(
	file: Blob,
	form: ImageSettingsTarget,
	reference: Pick<ReferenceImageControls, "change"> | null,
): Promise<void> {
	if (reference) {
		// Part of the settings' code, loaded by then: only a model they chose takes an image.
		void import("./add-reference-file").then(({ addReferenceFile }) =>
			addReferenceFile(reference, file),
		);
	}
	const settings = await readImageSettings(file);
	if (!settings) return;
	form.setPrompt(settings.prompt);
	if (settings.aspectRatio) form.setAspectRatio(settings.aspectRatio);
	form.askSettings(settings.prefill);
	form.promptRef.current?.focus();
	const link = settings.regionEdit && (await findRegionEditLink(settings.regionEdit));
	if (link) form.navigate(link);
}

/** The settings `file` carries, or null, said in a toast, when it carries none. */
async function readImageSettings(file: Blob): Promise<ImageSettings | null> {
	const { readImageRecipe } = await import("../../../lib/generations/read-image-recipe");
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
async function findRegionEditLink(regionEdit: RecipeRegionEdit): Promise<string | null> {
	const [{ fetchGeneration }, { buildReopenEditorLink }] = await Promise.all([
		import("../../../lib/generations/generations-requests"),
		import("../../../lib/generations/image-actions"),
	]);
	const generation = await fetchGeneration(regionEdit.generationId).catch(() => null);
	return generation ? buildReopenEditorLink(generation) : null;
}
