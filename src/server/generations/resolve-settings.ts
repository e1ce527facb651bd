import { randomInt } from "node:crypto";
import type { GenerationSettings } from "../../shared/generation-responses";
import { MAX_SEED, type Quality } from "../../shared/generation-settings";
import type { CreateGenerationRequest } from "../../shared/generations";
import { AppError } from "../http/errors";
import type { Model, ModelCatalogue } from "../models/model-catalogue";
import { toGenerationInput } from "./generation-input";

function refuse(message: string): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/**
 * The model a request names (or the default) and the settings it will be made with, each checked
 * against what that model offers; a setting it does not offer is refused with a message naming the
 * field, never silently dropped. A random seed is drawn here, so the seed used is known (and
 * answered) from the start. Ends with the provider's own check (a ComfyUI seed input's range).
 */
export async function resolveSettings(
	catalogue: ModelCatalogue,
	request: CreateGenerationRequest,
): Promise<{ model: Model; settings: GenerationSettings }> {
	const model =
		request.model === undefined ? catalogue.defaultModel() : catalogue.find(request.model);
	if (!model) refuse(`model "${request.model}" is not offered`);
	if (!model.ratios.includes(request.aspectRatio)) {
		refuse(`aspectRatio must be one of ${model.ratios.join(", ")} for this model`);
	}
	const count = request.count ?? Math.max(...model.counts);
	if (!model.counts.includes(count)) {
		refuse(`count must be one of ${model.counts.join(", ")} for this model`);
	}
	if (request.seed !== null && !model.seed) refuse("seed is not offered by this model");
	if (request.negativePrompt !== null && !model.negativePrompt) {
		refuse("negativePrompt is not offered by this model");
	}
	if (request.quality !== null && !model.qualities.includes(request.quality)) {
		refuse(
			model.qualities.length === 0
				? "quality is not offered by this model"
				: `quality must be one of ${model.qualities.join(", ")} for this model`,
		);
	}
	const settings: GenerationSettings = {
		count,
		seed: model.seed ? (request.seed ?? (await drawSeed(model))) : null,
		negativePrompt: request.negativePrompt,
		quality: request.quality ?? defaultQualityOf(model),
	};
	const input = toGenerationInput(request.prompt, request.aspectRatio, settings);
	const problem = await model.provider.checkInput?.(input);
	if (problem) refuse(problem.message);
	return { model, settings };
}

/** A random seed the model's service accepts: its own draw where its range is narrower. */
async function drawSeed(model: Model): Promise<number> {
	return (await model.provider.randomSeed?.()) ?? randomInt(0, MAX_SEED + 1);
}

/**
 * The quality a generation naming none is made with, so the recorded settings say which one was
 * used: the provider's configured default where the model offers it, else the first the model
 * offers (an entry may have narrowed the default away); null where the model has no quality
 * setting, or where the service chooses by itself (OpenAI's `auto`, sent as such).
 */
function defaultQualityOf(model: Model): Quality | null {
	if (model.qualities.length === 0) return null;
	const configured = model.provider.capabilities.defaultQuality;
	if (configured === undefined) return null;
	return model.qualities.includes(configured) ? configured : (model.qualities[0] ?? null);
}
