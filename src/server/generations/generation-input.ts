import { type AspectRatio, findAspectRatio } from "../../shared/aspect-ratios";
import type { GenerationSettings } from "../../shared/generation-responses";
import { stripAspectRatioFlag } from "../../shared/prompt";
import type { GenerationRow } from "../db/schema";
import type { GenerationInput } from "../providers/types";

/** What a generation's row asks its provider for: the prompt without its flag, and its settings. */
export function inputOf(row: GenerationRow): GenerationInput {
	return toGenerationInput(row.prompt, findAspectRatio(row.aspect_ratio).value, settingsOf(row));
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
