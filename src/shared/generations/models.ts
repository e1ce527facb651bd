// The models people choose from, as the API shows them (GET /api/models). Written with zod/mini:
// the generator parses these in the browser (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import { imageLocalModelDescription, imageUpscaleResamples } from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";
import { AspectRatioSchema, QualitySchema } from "./generation-responses";

/** A model as people may see it: never a provider's secret or address. */
export const PublicModelSchema = z.object({
	id: z.string(),
	label: z.string(),
	description: z.nullable(z.string()),
	/** Estimated US dollars per image, where the operator set it. */
	pricePerImage: z.nullable(z.number()),
	ratios: z.array(AspectRatioSchema),
	counts: z.array(z.int()),
	seed: z.boolean(),
	negativePrompt: z.boolean(),
	qualities: z.array(QualitySchema),
	/** Whether it makes images from a prompt; false for a model that only upscales. */
	textToImage: z.boolean(),
	/** Whether it takes a reference image: variations and edits. */
	imageInput: z.boolean(),
	/**
	 * Whether it honours a reference strength (a start's `strength`, the generator's slider); false
	 * where the model decides by itself how far to move from the image (OpenAI), or takes none.
	 */
	referenceStrength: z.boolean(),
	/** The factors it upscales by (2, 4); empty when it does not upscale. */
	upscale: z.array(z.int()),
	/**
	 * Whether its upscale only resamples the image (the offline engine's Lanczos): larger, with no
	 * added detail; false for an upscaler that adds detail, and where it does not upscale.
	 */
	upscaleResamples: z.boolean(),
	/** Whether it edits the region of an image a mask covers (`action: "edit-region"`). */
	mask: z.boolean(),
	/** Whether it paints beyond an image's frame (`action: "expand"`). */
	outpaint: z.boolean(),
});
export type PublicModel = z.infer<typeof PublicModelSchema>;

/**
 * `GET /api/models`. `preferredModelId` is, for a signed-in person, the model of their latest
 * generation while it is still offered (the choice remembered per person), else null.
 */
export const ModelsResponseSchema = z.object({
	models: z.array(PublicModelSchema),
	defaultModelId: z.string(),
	preferredModelId: z.optional(z.nullable(z.string())),
});
export type ModelsResponse = z.infer<typeof ModelsResponseSchema>;

/**
 * What the offline engine's model says of itself when its entry gives no description, and, where
 * it upscales, that its upscale only resamples. The API answers it in English (a script reads the
 * same text whatever its language); a screen shows it in the page's (translateModelDescription).
 */
export function describeLocalModel(upscales: boolean, options?: MessageOptions): string {
	const description = imageLocalModelDescription(options);
	return upscales ? `${description} ${imageUpscaleResamples(options)}` : description;
}

/** A model's description as a screen shows it: the offline engine's own in the page's language. */
export function translateModelDescription(description: string): string {
	for (const upscales of [false, true]) {
		if (description === describeLocalModel(upscales, { language: "en" })) {
			return describeLocalModel(upscales);
		}
	}
	return description;
}
