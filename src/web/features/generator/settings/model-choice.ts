// Which model and settings the form starts with, and how they follow a change of model. Loaded on
// demand with the controls (generation-controls.tsx).
import type { ModelsResponse, PublicModel } from "../../../../shared/generations/models";
import type { SettingsChoice, SettingsPrefill } from "./generation-choice";

/** The offered count nearest to `wanted`; between two as near, the larger (more to choose from). */
export function snapCount(counts: readonly number[], wanted: number): number {
	let best = counts[0] ?? wanted;
	for (const count of counts) {
		const distance = Math.abs(count - wanted);
		const bestDistance = Math.abs(best - wanted);
		if (distance < bestDistance || (distance === bestDistance && count > best)) best = count;
	}
	return best;
}

/**
 * The choice for `model`, keeping what `previous` holds: the texts as they are (sent only where
 * the model offers them), the count snapped to the nearest the model offers, the quality where the
 * model has it (none picked otherwise). Without a previous count, the largest the model offers.
 */
export function fitChoice(
	model: PublicModel,
	previous: Partial<Omit<SettingsChoice, "model">> = {},
): SettingsChoice {
	const count =
		previous.count === undefined
			? Math.max(...model.counts)
			: snapCount(model.counts, previous.count);
	// None picked is none sent: the server takes the model's own (the entry's quality).
	const quality =
		previous.quality && model.qualities.includes(previous.quality) ? previous.quality : null;
	return {
		model,
		count,
		seed: previous.seed ?? "",
		negativePrompt: previous.negativePrompt ?? "",
		quality,
		styleId: previous.styleId ?? null,
		// The rewrite used stays with the prompt whatever the model (decision 039).
		...(previous.enhanced ? { enhanced: previous.enhanced } : {}),
	};
}

/**
 * The answer with only the models that make images from a prompt: an upscaler (textToImage false)
 * is neither offered in the picker nor started with.
 */
export function listTextModels(answer: ModelsResponse): ModelsResponse {
	return { ...answer, models: answer.models.filter((model) => model.textToImage) };
}

/** The model to start with: the person's last one while offered, else the operator's default. */
function findStartingModel(answer: ModelsResponse): PublicModel | undefined {
	const find = (id: string | null | undefined) => answer.models.find((model) => model.id === id);
	return find(answer.preferredModelId) ?? find(answer.defaultModelId) ?? answer.models[0];
}

/** True when `model` can take every setting `prefill` asks for, so none of them is lost. */
function canTake(model: PublicModel, prefill: SettingsPrefill): boolean {
	return (
		(prefill.seed === null || model.seed) &&
		(!prefill.negativePrompt || model.negativePrompt) &&
		(prefill.quality === null || model.qualities.includes(prefill.quality)) &&
		(prefill.count === null || model.counts.includes(prefill.count))
	);
}

/**
 * The model that stands in for one no longer offered: the current one, else the default, else the
 * first offered, whichever first can take all the prefill asks for; undefined when none can.
 */
function findModelTaking(
	answer: ModelsResponse,
	prefill: SettingsPrefill,
	current: PublicModel | undefined,
): PublicModel | undefined {
	const byDefault = answer.models.find((model) => model.id === answer.defaultModelId);
	const candidates = [current, byDefault, ...answer.models];
	return candidates.find((model) => model !== undefined && canTake(model, prefill));
}

/**
 * The choice a prefill (a link, an image's recipe) asks for over `current` (or the starting
 * model), and whether the model it names is no longer offered: then a model that can take the
 * rest of the prefill stands in for it (findModelTaking; the current or starting one when none
 * can), and the rest is kept where that model offers it.
 */
export function applyPrefill(
	answer: ModelsResponse,
	prefill: SettingsPrefill | null,
	current: SettingsChoice | null,
): { choice: SettingsChoice | null; isModelGone: boolean } {
	const named = prefill?.modelId
		? answer.models.find((model) => model.id === prefill.modelId)
		: undefined;
	const isModelGone = prefill !== null && Boolean(prefill.modelId) && named === undefined;
	const model =
		named ??
		(isModelGone && prefill ? findModelTaking(answer, prefill, current?.model) : undefined) ??
		current?.model ??
		findStartingModel(answer);
	if (!model) return { choice: null, isModelGone };
	const previous: Partial<Omit<SettingsChoice, "model">> = current ? { ...current } : {};
	if (prefill) {
		if (prefill.count !== null) previous.count = prefill.count;
		// What was made without a seed or a negative prompt is made again without: a prefill
		// without a seed asks for a random one (Use prompt), with one, that one (Use settings).
		previous.seed = prefill.seed === null ? "" : String(prefill.seed);
		previous.negativePrompt = prefill.negativePrompt ?? "";
		if (prefill.quality !== null) previous.quality = prefill.quality;
		// Made without a style is made again without one, as the seed and negative prompt.
		previous.styleId = prefill.styleId ?? null;
	}
	return { choice: fitChoice(model, previous), isModelGone };
}
