import { randomInt } from "node:crypto";
import { type AspectRatio, nearestAspectRatio } from "../../../shared/generations/aspect-ratios";
import type { CreateGenerationRequest } from "../../../shared/generations/create-generation-request";
import type { GenerationSettings } from "../../../shared/generations/generation-responses";
import { MAX_SEED, type Quality } from "../../../shared/generations/generation-settings";
import { type ExpandFrame, isRegionAction } from "../../../shared/generations/region-edit";
import {
	generatorPromptRequired,
	serverAspectRatioOneOf,
	serverCountOneForUpscale,
	serverCountOneOf,
	serverFactorNoModel,
	serverFactorNoUpscale,
	serverFactorOneOf,
	serverFactorOnlyUpscale,
	serverModelNeedsReference,
	serverModelNotOffered,
	serverNegativePromptNotOffered,
	serverOriginalModelGone,
	serverQualityNotOffered,
	serverQualityOneOf,
	serverReferenceNotTaken,
	serverReferenceOfGeneration,
	serverReferenceRequiredFor,
	serverSeedNotOffered,
	serverStrengthDecidedByModel,
	serverStrengthNotUpscale,
	serverStrengthOfVariation,
	serverStrengthOnlyWithReference,
	serverUpscaleOwnRatio,
	serverUpscaleTooLarge,
	sharedAspectRatioOneOf,
} from "../../../shared/i18n/messages";
import {
	DEFAULT_REFERENCE_STRENGTH,
	DEFAULT_UPSCALE_FACTOR,
	type GenerationAction,
	MAX_UPLOAD_PIXELS,
	VARY_STRENGTHS,
} from "../../../shared/image-input/image-input";
import { AppError, type LocalizedMessage } from "../../errors/app-error";
import type { Model, ModelCatalogue } from "../../models/model-catalogue";
import type { GenerationInput } from "../../providers/types";
import { type ImageAction, toGenerationInput, toImageInstruction } from "../generation-input";
import type { ReferenceSource } from "../run/reference-image";
import {
	checkRegionFields,
	chooseRegionModel,
	regionAspectRatio,
	resolveExpandFrame,
} from "./resolve-region-edit";

/** VALIDATION_ERROR with a catalogue message, written in the request's language. */
function refuse(message: LocalizedMessage): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/** A list of a model's choices as a refusal names them: `1, 2, 4`. */
function listOf(values: readonly (string | number)[]): string {
	return values.join(", ");
}

/**
 * The largest image an upscale may make: the most pixels Atelier takes in as an image (an
 * upload's limit) is also the most it makes, so an upscale of an upscale cannot grow without end.
 */
export const MAX_UPSCALED_PIXELS = MAX_UPLOAD_PIXELS;

/** A request resolved: what the generation is made with and what its row records. */
export type ResolvedGeneration = {
	model: Model;
	/** As the person wrote it (its `--ar` flag kept), or the parent's. */
	prompt: string;
	aspectRatio: AspectRatio;
	settings: GenerationSettings;
	/** What it does with its reference image; absent when made from the prompt alone. */
	imageAction?: ImageAction;
	/** An expansion's new frame (resolve-region-edit.ts). */
	frame?: ExpandFrame;
};

/**
 * The model a request names (or the default) and the settings it will be made with, each checked
 * against what that model offers; a setting it does not offer is refused with a message naming the
 * field, never silently dropped. A random seed is drawn here, so the seed used is known (and
 * answered) from the start. Ends with the provider's own check (a ComfyUI seed input's range).
 *
 * Made from an image (`source`, the reference already found and read): a variation keeps its
 * parent's prompt, ratio and model (and negative prompt and quality where the model offers them)
 * unless the request names others, with a new seed and the variation's strength; an upscale makes
 * one image `factor` times its parent's, on the request's model, else the parent's if it offers the
 * factor, else the first model in the catalogue that does; an edit takes the request's prompt and
 * strength (0.6 by default) and keeps the reference's ratio unless the request names one. A model
 * that takes no reference strength (OpenAI) is refused one, and records none.
 */
export async function resolveSettings(
	catalogue: ModelCatalogue,
	request: CreateGenerationRequest,
	source?: ReferenceSource,
): Promise<ResolvedGeneration> {
	let imageAction = resolveImageAction(request, source);
	const action = imageAction?.action;
	const parent = source?.kind === "generation" ? source.parent : undefined;
	const isFromParent = action === "vary-subtle" || action === "vary-strong" || action === "upscale";
	const prompt = request.prompt ?? (isFromParent && parent ? parent.prompt : undefined);
	if (prompt === undefined) refuse(generatorPromptRequired);
	const model = chooseModel(catalogue, request, source, imageAction);
	// Edit region keeps its image's size and Expand makes its new frame: neither takes a ratio of
	// the model's list, the result being laid over the source at its own size.
	const isRegion = isRegionAction(action);
	const frame =
		action === "expand" && source ? resolveExpandFrame(request, source, model) : undefined;
	const aspectRatio =
		isRegion && source ? regionAspectRatio(source, frame) : resolveAspectRatio(request, source);
	if (imageAction && action !== "upscale" && !model.referenceStrength) {
		// The model decides by itself how far to move from the image (OpenAI's edit endpoint): a
		// strength asked for is refused, not ignored, and none is recorded as used.
		if (request.strength !== undefined) {
			refuse(serverStrengthDecidedByModel);
		}
		imageAction = { ...imageAction, strength: null };
	}

	if (action !== "upscale" && !isRegion && !model.ratios.includes(aspectRatio)) {
		refuse((options) => serverAspectRatioOneOf({ ratios: listOf(model.ratios) }, options));
	}
	let count: number;
	if (action === "upscale") {
		if (request.count !== undefined && request.count !== 1) refuse(serverCountOneForUpscale);
		count = 1;
	} else {
		count = request.count ?? Math.max(...model.counts);
		if (!model.counts.includes(count)) {
			refuse((options) => serverCountOneOf({ counts: listOf(model.counts) }, options));
		}
	}
	if (request.seed !== null && !model.seed) refuse(serverSeedNotOffered);
	if (request.negativePrompt !== null && !model.negativePrompt) {
		refuse(serverNegativePromptNotOffered);
	}
	if (request.quality !== null && !model.qualities.includes(request.quality)) {
		refuse(
			model.qualities.length === 0
				? serverQualityNotOffered
				: (options) => serverQualityOneOf({ qualities: listOf(model.qualities) }, options),
		);
	}
	// A variation or an upscale keeps what its parent was made with where the model offers it.
	const kept = isFromParent ? parent : undefined;
	const keptQuality = kept?.quality && model.qualities.includes(kept.quality) ? kept.quality : null;
	const settings: GenerationSettings = {
		count,
		// Always a new seed for a variation: the same one would repaint the same picture.
		seed: model.seed ? (request.seed ?? (await drawSeed(model))) : null,
		negativePrompt:
			request.negativePrompt ?? (kept && model.negativePrompt ? kept.negative_prompt : null),
		quality: request.quality ?? keptQuality ?? defaultQualityOf(model),
	};
	let input: GenerationInput = toGenerationInput(prompt, aspectRatio, settings);
	// A region's image and mask are made by its run (its frame, its mask's convention): the
	// provider checks the settings alone.
	if (imageAction && source && !isRegion) {
		input = { ...input, image: toImageInstruction(source.image, imageAction) };
	}
	const problem = await model.provider.checkInput?.(input);
	if (problem) throw new AppError("VALIDATION_ERROR", problem.message);
	return {
		model,
		prompt,
		aspectRatio,
		settings,
		...(imageAction ? { imageAction } : {}),
		...(frame ? { frame } : {}),
	};
}

/**
 * What the request does with its reference, its fields checked together: an action needs a
 * reference (a variation and an upscale, an image of a generation), a reference without an action
 * is an edit, a strength is an edit's and a factor an upscale's.
 */
function resolveImageAction(
	request: CreateGenerationRequest,
	source: ReferenceSource | undefined,
): ImageAction | undefined {
	checkRegionFields(request, request.action ?? (source ? "edit" : null));
	if (!source) {
		const asked = request.action;
		if (asked !== undefined) {
			refuse((options) => serverReferenceRequiredFor({ action: asked }, options));
		}
		if (request.strength !== undefined) refuse(serverStrengthOnlyWithReference);
		if (request.factor !== undefined) refuse(serverFactorOnlyUpscale);
		return undefined;
	}
	const action: GenerationAction = request.action ?? "edit";
	if (action !== "upscale" && request.factor !== undefined) {
		refuse(serverFactorOnlyUpscale);
	}
	if (action === "edit") {
		return {
			action,
			strength: request.strength ?? DEFAULT_REFERENCE_STRENGTH,
			factor: null,
		};
	}
	if (action === "edit-region" || action === "expand") {
		return { action, strength: null, factor: null };
	}
	if (source.kind !== "generation") {
		refuse((options) => serverReferenceOfGeneration({ action }, options));
	}
	if (action === "upscale") {
		if (request.strength !== undefined) refuse(serverStrengthNotUpscale);
		const factor = request.factor ?? DEFAULT_UPSCALE_FACTOR;
		const { width, height } = source.image;
		if (width * factor * height * factor > MAX_UPSCALED_PIXELS) {
			// Figures as text: the English is written without thousands separators.
			const figures = {
				factor: String(factor),
				width: String(width * factor),
				height: String(height * factor),
				megapixels: String(MAX_UPSCALED_PIXELS / 1_000_000),
			};
			refuse((options) => serverUpscaleTooLarge(figures, options));
		}
		return { action, strength: null, factor };
	}
	if (request.strength !== undefined) {
		refuse((options) =>
			serverStrengthOfVariation({ action, strength: VARY_STRENGTHS[action] }, options),
		);
	}
	return { action, strength: VARY_STRENGTHS[action], factor: null };
}

/**
 * The request's ratio, else its reference's: a generation's own (an upscale may name no other),
 * or for an upload the ratio nearest its size.
 */
function resolveAspectRatio(
	request: CreateGenerationRequest,
	source: ReferenceSource | undefined,
): AspectRatio {
	if (source?.kind === "generation") {
		const own = source.parent.aspect_ratio;
		if (request.action === "upscale" && request.aspectRatio && request.aspectRatio !== own) {
			refuse((options) => serverUpscaleOwnRatio({ ratio: own }, options));
		}
		return request.aspectRatio ?? own;
	}
	if (request.aspectRatio) return request.aspectRatio;
	if (source) return nearestAspectRatio(source.image.width, source.image.height);
	return refuse(sharedAspectRatioOneOf);
}

function chooseModel(
	catalogue: ModelCatalogue,
	request: CreateGenerationRequest,
	source: ReferenceSource | undefined,
	imageAction: ImageAction | undefined,
): Model {
	const named = (id: string): Model =>
		catalogue.find(id) ?? refuse((options) => serverModelNotOffered({ model: id }, options));
	const action = imageAction?.action;
	if (isRegionAction(action) && source) {
		return chooseRegionModel(catalogue, request, source, action);
	}
	if (action === "upscale" && source?.kind === "generation") {
		const factor = imageAction?.factor ?? DEFAULT_UPSCALE_FACTOR;
		if (request.model !== undefined) {
			const model = named(request.model);
			if (!model.upscale.includes(factor)) {
				refuse(
					model.upscale.length === 0
						? serverFactorNoUpscale
						: (options) => serverFactorOneOf({ factors: listOf(model.upscale) }, options),
				);
			}
			return model;
		}
		const parentModel = catalogue.find(source.parent.model_id);
		if (parentModel?.upscale.includes(factor)) return parentModel;
		return (
			catalogue.models.find((model) => model.upscale.includes(factor)) ??
			refuse((options) => serverFactorNoModel({ factor: String(factor) }, options))
		);
	}
	let model: Model;
	if (request.model !== undefined) {
		model = named(request.model);
	} else if (source?.kind === "generation" && action !== "edit") {
		const parentModel = catalogue.find(source.parent.model_id);
		if (!parentModel) {
			const gone = source.parent.model_id;
			refuse((options) => serverOriginalModelGone({ model: gone }, options));
		}
		model = parentModel;
	} else {
		model = catalogue.defaultModel();
	}
	if (action !== undefined && !model.imageInput) {
		refuse(serverReferenceNotTaken);
	}
	if (action === undefined && !model.textToImage) {
		refuse((options) => serverModelNeedsReference({ model: model.id }, options));
	}
	return model;
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
