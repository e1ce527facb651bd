import { ASPECT_RATIO_VALUES, type AspectRatio } from "../../shared/generations/aspect-ratios";
import { IMAGE_COUNTS, type Quality } from "../../shared/generations/generation-settings";
import { describeLocalModel, type PublicModel } from "../../shared/generations/models";
import { providerLabel } from "../providers/registry/provider-registry";
import type { ImageProvider } from "../providers/types";

/**
 * A model people may choose: what they see of it (its capabilities already narrowed by its
 * catalogue entry) and the configured provider that makes its images. The same provider may serve
 * several models, each with its own instance and options.
 */
export type Model = PublicModel & {
	provider: ImageProvider;
	/**
	 * Whether a region edit's result is laid over its source through the mask, so every pixel
	 * outside it is kept (true unless the entry's `keepUnmasked` is false).
	 */
	keepUnmasked: boolean;
};

/** The models this server offers, loaded once at start (MODELS_FILE, or the one IMAGE_PROVIDER names). */
export type ModelCatalogue = {
	readonly models: readonly Model[];
	readonly defaultModelId: string;
	/** The model with this id, or undefined when it is not (or no longer) offered. */
	find(id: string): Model | undefined;
	/** The model used when a request names none. */
	defaultModel(): Model;
};

export function createModelCatalogue(
	models: readonly Model[],
	defaultModelId: string,
): ModelCatalogue {
	const byId = new Map(models.map((model) => [model.id, model]));
	if (byId.size !== models.length) throw new Error("Model ids must be unique");
	const defaultModel = byId.get(defaultModelId);
	if (!defaultModel) throw new Error(`The default model ${defaultModelId} is not in the catalogue`);
	return {
		models,
		defaultModelId,
		find: (id) => byId.get(id),
		defaultModel: () => defaultModel,
	};
}

/** A model as GET /api/models shows it. */
export function toPublicModel(model: Model): PublicModel {
	const { provider: _provider, keepUnmasked: _keepUnmasked, ...visible } = model;
	return visible;
}

/** What a catalogue entry may narrow of what its provider can do. */
export type ModelNarrowing = {
	ratios?: readonly AspectRatio[];
	counts?: readonly number[];
	/** false turns the seed off where the provider has one; true cannot turn it on. */
	seed?: boolean;
	negativePrompt?: boolean;
	qualities?: readonly Quality[];
	/** false turns image input (variations, edits) off where the provider takes an image. */
	imageInput?: boolean;
	/** The upscale factors offered, among the provider's. */
	upscale?: readonly number[];
	/** false turns Edit region off where the provider can do it. */
	mask?: boolean;
	/** false turns Expand off where the provider can do it. */
	outpaint?: boolean;
	/** false stores a region edit's result as the provider made it, not laid over the source. */
	keepUnmasked?: boolean;
};

/**
 * The description of a model whose entry gives none: the offline engine's says what it is and,
 * where it upscales, that its upscale only resamples; other providers' have none. In English:
 * the API's values do not change with the caller's language.
 */
function describeByDefault(provider: ImageProvider, upscale: readonly number[]): string | null {
	if (provider.name !== "local") return null;
	return describeLocalModel(upscale.length > 0, { language: "en" });
}

/**
 * A model of this provider: the provider's capabilities, narrowed by the entry. Narrowing to
 * something the provider lacks is the loader's problem to report; here it simply is not offered.
 * Without a description of its own, the offline engine's model says what it is (describeByDefault).
 */
export function modelFromProvider(
	provider: ImageProvider,
	entry: {
		id: string;
		label: string;
		description?: string | null;
		pricePerImage?: number | null;
	} & ModelNarrowing,
): Model {
	const { capabilities } = provider;
	const offeredCounts = IMAGE_COUNTS.filter((count) => count <= capabilities.maxCount);
	const imageInput = capabilities.imageInput && entry.imageInput !== false;
	const upscale = capabilities.upscaleFactors.filter(
		(factor) => !entry.upscale || entry.upscale.includes(factor),
	);
	return {
		id: entry.id,
		label: entry.label,
		description: entry.description ?? describeByDefault(provider, upscale),
		pricePerImage: entry.pricePerImage ?? null,
		ratios: ASPECT_RATIO_VALUES.filter((ratio) => !entry.ratios || entry.ratios.includes(ratio)),
		counts: offeredCounts.filter((count) => !entry.counts || entry.counts.includes(count)),
		seed: capabilities.seed && entry.seed !== false,
		negativePrompt: capabilities.negativePrompt && entry.negativePrompt !== false,
		qualities: capabilities.qualities.filter(
			(quality) => !entry.qualities || entry.qualities.includes(quality),
		),
		textToImage: capabilities.textToImage,
		imageInput,
		referenceStrength: imageInput && capabilities.referenceStrength,
		upscale,
		upscaleResamples: upscale.length > 0 && capabilities.upscaleResamples,
		mask: imageInput && capabilities.mask && entry.mask !== false,
		outpaint: imageInput && capabilities.outpaint && entry.outpaint !== false,
		keepUnmasked: entry.keepUnmasked !== false,
		provider,
	};
}

/** A catalogue of one model: the provider IMAGE_PROVIDER configures, as every setup had before. */
export function catalogueOfOne(
	provider: ImageProvider,
	options: { id?: string; description?: string } = {},
): ModelCatalogue {
	const id = options.id ?? provider.name;
	const model = modelFromProvider(provider, {
		id,
		label: providerLabel(id),
		description: options.description ?? null,
	});
	return createModelCatalogue([model], model.id);
}
