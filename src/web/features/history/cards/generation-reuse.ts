// How a generation of the history is made again: its recipe handed to the generator (Use prompt,
// Use settings) or sent to the server as it is (Rerun), and whether its model is still offered.
import type { QueryClient } from "@tanstack/react-query";
import type {
	Generation,
	GenerationModel,
} from "../../../../shared/generations/generation-responses";
import type { ModelsResponse } from "../../../../shared/generations/models";
import { buildGeneratorLink } from "../../../lib/generations/generator-link";
import { buildReopenEditorLink } from "../../../lib/generations/image-actions";
import { MODELS_QUERY_KEY } from "../../../lib/generations/models-requests";

/**
 * True when the models offered are known and the generation's model is not among them (the
 * operator took it out). While the list is unknown, nothing is said: the server has the last word.
 */
export function isModelGone(generation: Generation, offered: ModelsResponse | undefined): boolean {
	return offered !== undefined && !offered.models.some(({ id }) => id === generation.model.id);
}

/** The same, read from the cache at the moment a person reuses a generation. */
export function readIsModelGone(queryClient: QueryClient, generation: Generation): boolean {
	return isModelGone(generation, queryClient.getQueryData<ModelsResponse>(MODELS_QUERY_KEY));
}

/**
 * "Use prompt": the generator filled with the prompt, ratio, model, image count, negative prompt
 * and quality; the seed stays random. A model no longer offered is still named: the generator says
 * so and fills the rest.
 */
export function buildUsePromptLink(generation: Generation): string {
	return buildReuseLink(generation, { withSeed: false });
}

/**
 * "Use settings": everything "Use prompt" fills, and the seed, to make the same images again. An
 * Edit region or Expand of an image of one's own generation reopens the editor on that image, with
 * its mask or frame.
 */
export function buildUseSettingsLink(generation: Generation): string {
	return buildReopenEditorLink(generation) ?? buildReuseLink(generation, { withSeed: true });
}

function buildReuseLink(generation: Generation, options: { withSeed: boolean }): string {
	return buildGeneratorLink(
		{
			prompt: generation.prompt,
			aspectRatio: generation.aspect_ratio,
			model: generation.model,
			settings: generation.settings,
			style: generation.style,
		},
		options,
	);
}

/** "Rerun": the same model and settings, and no seed, so the server draws a new one. */
export function buildRerunRequest(generation: Generation) {
	return {
		prompt: generation.prompt,
		aspectRatio: generation.aspect_ratio,
		model: generation.model.id,
		count: generation.settings.count,
		negativePrompt: generation.settings.negativePrompt,
		quality: generation.settings.quality,
		...(generation.style ? { style: generation.style.id } : {}),
	};
}

/**
 * The models the history's filter offers: "All models" and each model offered, by label; plus
 * the one the address asks for when it is no longer offered, named as its cards name it. Empty
 * (no filter shown) when there is only one model to tell apart and no model filter to clear.
 */
export function listModelChoices(
	offered: ModelsResponse | undefined,
	filteredModelId: string,
	items: readonly Generation[],
): GenerationModel[] {
	const choices: GenerationModel[] = offered?.models.map(({ id, label }) => ({ id, label })) ?? [];
	if (filteredModelId !== "" && !choices.some(({ id }) => id === filteredModelId)) {
		const shown = items.find((item) => item.model.id === filteredModelId)?.model;
		choices.push(shown ?? { id: filteredModelId, label: filteredModelId });
	}
	return choices.length > 1 || filteredModelId !== "" ? choices : [];
}
