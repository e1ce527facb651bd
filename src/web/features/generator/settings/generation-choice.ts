// The settings beside the prompt and ratio: as the form holds them for the chosen model, and as a
// start request sends them. On the first page (the form's state), so it stays small and imports
// only types; choosing, fitting and showing them load on demand (generation-controls.tsx).
import type { z } from "zod/mini";
import type { CreateGenerationRequestSchema } from "../../../../shared/generations/create-generation-request";
import type { Quality } from "../../../../shared/generations/generation-settings";
import type { PublicModel } from "../../../../shared/generations/models";

/**
 * What a start request sends beside the prompt and ratio (`style` is a style's id, GET
 * /api/styles); what is absent takes the server's default.
 */
export type RequestedSettings = Pick<
	z.input<typeof CreateGenerationRequestSchema>,
	"model" | "count" | "seed" | "negativePrompt" | "quality" | "style" | "originalPrompt"
>;

/**
 * The form's settings once the models are known. The texts stay when another model is chosen,
 * so choosing the first again brings them back; only what the chosen model offers is sent.
 */
export type SettingsChoice = {
	model: PublicModel;
	/** One of the model's counts (the controls snap it when the model changes). */
	count: number;
	/** The Seed field's text: empty asks for a random seed. */
	seed: string;
	negativePrompt: string;
	quality: Quality | null;
	/** The style chosen, kept whatever the model; none when absent. */
	styleId?: string | null;
	/** The last Enhance rewrite used, and the prompt it rewrote. */
	enhanced?: { original: string; used: string } | null;
};

/**
 * What another screen (a link) or an image's recipe asks the form to fill in; null where nothing.
 * A model named here that is no longer offered is said so, and the rest is kept.
 */
export type SettingsPrefill = {
	modelId: string | null;
	count: number | null;
	seed: number | null;
	negativePrompt: string | null;
	quality: Quality | null;
	/** A style's id; a style the person no longer has is dropped by the picker. */
	styleId?: string | null;
};

/** The settings a start request sends for `choice`: the model's id and what it offers, when set. */
export function toRequestedSettings(choice: SettingsChoice, prompt?: string): RequestedSettings {
	const { model } = choice;
	const settings: RequestedSettings = { model: model.id, count: choice.count };
	const seed = choice.seed.trim();
	if (model.seed && seed !== "") settings.seed = Number(seed);
	const negativePrompt = choice.negativePrompt.trim();
	if (model.negativePrompt && negativePrompt !== "") settings.negativePrompt = negativePrompt;
	if (choice.quality && model.qualities.includes(choice.quality)) settings.quality = choice.quality;
	if (choice.styleId) settings.style = choice.styleId;
	// Sent while the prompt is the rewrite used: the generation keeps both (decision 039).
	if (choice.enhanced && choice.enhanced.used === prompt) {
		settings.originalPrompt = choice.enhanced.original;
	}
	return settings;
}
