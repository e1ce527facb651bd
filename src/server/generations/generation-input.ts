import { type AspectRatio, findAspectRatio } from "../../shared/generations/aspect-ratios";
import type { GenerationSettings } from "../../shared/generations/generation-responses";
import {
	DEFAULT_REFERENCE_STRENGTH,
	DEFAULT_UPSCALE_FACTOR,
	type GenerationAction,
} from "../../shared/image-input/image-input";
import { stripAspectRatioFlag } from "../../shared/prompts/prompt";
import type { GenerationRow } from "../db/schema";
import type { GenerationInput, ImageInstruction, InputImage } from "../providers/types";

/**
 * What a generation's row asks its provider for: the prompt without its flag, and its settings;
 * for a generation made from an image, that image (its own copy, which the run loads) with what to
 * do with it. Without `referenceImage` the input has no image (cancelling a job needs none).
 */
export function inputOf(row: GenerationRow, referenceImage?: InputImage): GenerationInput {
	// With a style, the provider is asked for what the style made of the prompt (decision 034).
	const settings = settingsOf(row);
	const input = toGenerationInput(
		row.styled_prompt ?? row.prompt,
		findAspectRatio(row.aspect_ratio).value,
		row.style_id === null ? settings : { ...settings, negativePrompt: row.styled_negative_prompt },
	);
	if (!referenceImage || row.action === null) return input;
	return {
		...input,
		image: toImageInstruction(referenceImage, {
			action: row.action,
			strength: row.reference_strength,
			factor: row.upscale_factor,
		}),
	};
}

/** What a generation does with its image, as its row (or its request, resolved) says. */
export type ImageAction = {
	action: GenerationAction;
	/** Vary and edit: 0 to 1. */
	strength: number | null;
	/** Upscale: 2 or 4. */
	factor: number | null;
};

/** The provider's instruction for an image and what to do with it. */
export function toImageInstruction(image: InputImage, imageAction: ImageAction): ImageInstruction {
	if (imageAction.action === "upscale") {
		return { kind: "upscale", image, factor: imageAction.factor ?? DEFAULT_UPSCALE_FACTOR };
	}
	return {
		kind: "reference",
		image,
		strength: imageAction.strength ?? DEFAULT_REFERENCE_STRENGTH,
	};
}

/** What a generation with these settings asks its provider for; the prompt loses its `--ar` flag. */
export function toGenerationInput(
	prompt: string,
	aspectRatio: AspectRatio,
	settings: GenerationSettings,
): GenerationInput {
	return {
		prompt: stripAspectRatioFlag(prompt),
		aspectRatio,
		count: settings.count,
		seed: settings.seed,
		negativePrompt: settings.negativePrompt,
		quality: settings.quality,
	};
}

/** The settings a generation was made with, as its row keeps them. */
export function settingsOf(row: GenerationRow): GenerationSettings {
	return {
		count: row.image_count,
		// bigint: PostgreSQL answers it as text, and every seed (at most 2^32 - 1) fits a number.
		seed: row.seed === null ? null : Number(row.seed),
		negativePrompt: row.negative_prompt,
		quality: row.quality,
	};
}
