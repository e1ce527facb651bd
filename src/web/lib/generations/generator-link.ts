// How another screen hands a prompt, a ratio and a model's settings (and Edit, an image as the
// reference) to the generator: through its address, which the generator reads once (features do
// not import each other).
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	type AspectRatio,
	readRatioParam,
	toRatioParam,
} from "../../../shared/generations/aspect-ratios";
import type { GenerationSettings } from "../../../shared/generations/generation-responses";
import {
	IMAGE_COUNTS,
	MAX_SEED,
	QUALITIES,
	type Quality,
} from "../../../shared/generations/generation-settings";
import { sanitizePrompt } from "../../../shared/prompts/prompt";

type GeneratorPrefill = {
	prompt: string | null;
	aspectRatio: AspectRatio | null;
	/** The model's id as the link names it; the generator says so when it is no longer offered. */
	modelId: string | null;
	count: number | null;
	seed: number | null;
	negativePrompt: string | null;
	quality: Quality | null;
	styleId: string | null;
	/** The image an Edit link names as the reference (image-actions.ts, buildEditLink); the server checks the id. */
	reference: { generationId: string; imageIndex: number } | null;
};

type GeneratorLinkRequest = {
	prompt: string;
	aspectRatio: AspectRatio;
	model?: { id: string };
	settings?: GenerationSettings;
	style?: { id: string } | null;
};

/**
 * The generator's address with the prompt and ratio filled in, like `/?prompt=...&ratio=16:9`,
 * and, given a generation's model and settings, those too (`model`, `count`, `negative`,
 * `quality`), and its `style`. The seed only with `withSeed` ("Use settings"); "Use prompt" leaves it random.
 */
export function buildGeneratorLink(
	request: GeneratorLinkRequest,
	options: { withSeed?: boolean } = {},
): string {
	const params = new URLSearchParams({
		prompt: request.prompt,
		ratio: toRatioParam(request.aspectRatio),
	});
	if (request.model) params.set("model", request.model.id);
	if (request.style) params.set("style", request.style.id);
	const settings = request.settings;
	if (settings) {
		params.set("count", String(settings.count));
		if (settings.negativePrompt) params.set("negative", settings.negativePrompt);
		if (settings.quality) params.set("quality", settings.quality);
		if (options.withSeed && settings.seed !== null) params.set("seed", String(settings.seed));
	}
	return `${APP_PATHS.generator}?${params}`;
}

/** What an address built by buildGeneratorLink asks the generator to fill in; null where nothing. */
export function readGeneratorLink(search: string): GeneratorPrefill {
	const params = new URLSearchParams(search);
	const prompt = params.get("prompt");
	const negative = params.get("negative");
	const referenceId = params.get("reference");
	const image = params.get("image") ?? "";
	return {
		prompt: prompt ? sanitizePrompt(prompt) : null,
		aspectRatio: readRatioParam(params.get("ratio")),
		modelId: params.get("model") || null,
		count: readWholeNumber(params.get("count"), IMAGE_COUNTS.length, 1),
		seed: readWholeNumber(params.get("seed"), MAX_SEED, 0),
		negativePrompt: negative ? sanitizePrompt(negative) : null,
		quality: QUALITIES.find((quality) => quality === params.get("quality")) ?? null,
		styleId: params.get("style")?.slice(0, 100) || null,
		reference:
			referenceId && /^\d{1,2}$/.test(image)
				? { generationId: referenceId, imageIndex: Number(image) }
				: null,
	};
}

function readWholeNumber(text: string | null, max: number, min: number): number | null {
	if (text === null || !/^\d{1,10}$/.test(text)) return null;
	const value = Number(text);
	return value >= min && value <= max ? value : null;
}
