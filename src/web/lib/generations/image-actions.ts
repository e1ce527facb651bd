// What can be made from one image of a generation (Vary, Upscale, Edit, Edit region, Expand), for
// every screen that shows a result: the generator, its preview, and the history's cards and
// preview. Vary and Upscale are start requests of their own; Edit hands the image to the generator
// as its reference; Edit region and Expand open the mask editor on it.
import { APP_PATHS } from "../../../shared/core/app-routes";
import type { Generation } from "../../../shared/generations/generation-responses";
import type { PublicModel } from "../../../shared/generations/models";
import type { GenerationAction, ReferenceInput } from "../../../shared/image-input/image-input";
import type { StartGenerationRequest } from "./generations-requests";
import { buildGeneratorLink } from "./generator-link";

/**
 * The actions a result image offers: Vary and Edit, and Upscale's factors (none: no Upscale), with
 * those whose upscale only resamples (the model that will do it adds no detail, as the offline
 * engine's Lanczos), which say so.
 */
export type ImageActionChoices = {
	canVary: boolean;
	canEdit: boolean;
	/** Whether some model offered repaints a masked region: the editor's Edit region. */
	canEditRegion: boolean;
	/** Whether some model offered paints beyond the frame: the editor's Expand. */
	canExpand: boolean;
	upscaleFactors: number[];
	resampledFactors: number[];
};

export const NO_IMAGE_ACTIONS: ImageActionChoices = {
	canVary: false,
	canEdit: false,
	canEditRegion: false,
	canExpand: false,
	upscaleFactors: [],
	resampledFactors: [],
};

/**
 * What the generation's model can do with one of its images: Vary and Edit where it takes an image;
 * Upscale by its own factors, or, where it has none, by those of the models that upscale (the server
 * then upscales with the first of them that offers the factor). A factor whose upscaling model only
 * resamples is among `resampledFactors`. Edit region and Expand wherever some model offered can
 * do them (the editor then offers only those). Nothing while the models are unknown.
 */
export function readImageActions(
	modelId: string,
	models: readonly PublicModel[] | undefined,
): ImageActionChoices {
	if (!models) return NO_IMAGE_ACTIONS;
	const model = models.find(({ id }) => id === modelId);
	const own = model?.upscale ?? [];
	const factors = (
		own.length > 0 ? [...own] : [...new Set(models.flatMap((candidate) => candidate.upscale))]
	).sort((left, right) => left - right);
	// The model the server upscales with, as it chooses it: the image's own, else the first that can.
	const upscalerOf = (factor: number) =>
		model?.upscale.includes(factor)
			? model
			: models.find((candidate) => candidate.upscale.includes(factor));
	return {
		canVary: model?.imageInput === true,
		canEdit: model?.imageInput === true,
		...readEditorTools(models),
		upscaleFactors: factors,
		resampledFactors: factors.filter((factor) => upscalerOf(factor)?.upscaleResamples === true),
	};
}

/** A start from one image of a generation that needs nothing more: Vary or Upscale. */
export type ImmediateAction = Exclude<GenerationAction, "edit">;

/**
 * The start request of Vary or Upscale of image `imageIndex` of generation `generationId`: the
 * server takes the prompt, ratio and model from it.
 */
export function buildImageActionRequest(
	action: ImmediateAction,
	reference: { generationId: string; imageIndex: number },
	factor?: number,
): StartGenerationRequest {
	const request: StartGenerationRequest = { action, reference };
	if (action === "upscale" && factor !== undefined) request.factor = factor;
	return request;
}

/** Whether the reference is an image of a generation (not an upload). */
export function isGenerationReference(
	reference: ReferenceInput,
): reference is { generationId: string; imageIndex: number } {
	return "generationId" in reference;
}

/**
 * Edit from another screen: the generator's address with the prompt, ratio and model filled in
 * and the image as its reference (`reference` and `image`, read by readGeneratorLink).
 */
export function buildEditLink(generation: {
	id: string;
	prompt: string;
	aspect_ratio: Parameters<typeof buildGeneratorLink>[0]["aspectRatio"];
	model: { id: string };
	imageIndex: number;
}): string {
	const link = buildGeneratorLink({
		prompt: generation.prompt,
		aspectRatio: generation.aspect_ratio,
		model: generation.model,
	});
	const reference = new URLSearchParams({
		reference: generation.id,
		image: String(generation.imageIndex),
	});
	return `${link}&${reference}`;
}

/** Whether some model offered can do each of the editor's tools: any image may be edited by them. */
export function readEditorTools(models: readonly PublicModel[] | undefined): {
	canEditRegion: boolean;
	canExpand: boolean;
} {
	return {
		canEditRegion: models?.some((model) => model.mask === true) ?? false,
		canExpand: models?.some((model) => model.outpaint === true) ?? false,
	};
}

/** The editor's tools: Edit region (a mask painted over the image) and Expand (a wider frame). */
export type EditorTool = "region" | "expand";

/** The image the editor opens: one image of one's own generation, or an upload of one's own. */
export type EditorSource = { generationId: string; imageIndex: number } | { uploadId: string };

/** What an editor link names: the image, the tool, and the generation whose recipe to reopen. */
export type EditorLink = { source: EditorSource; tool: EditorTool; reopen: string | null };

/**
 * The editor's address for `source` with `tool` chosen; with `reopen`, the id of a generation the
 * editor made, whose prompt, settings and mask it starts from (Use settings).
 */
export function buildEditorLink(
	source: EditorSource,
	tool: EditorTool,
	reopen: string | null = null,
): string {
	const params = new URLSearchParams(
		"uploadId" in source
			? { upload: source.uploadId }
			: { generation: source.generationId, image: String(source.imageIndex) },
	);
	params.set("tool", tool);
	if (reopen) params.set("reopen", reopen);
	return `${APP_PATHS.editor}?${params}`;
}

/** The editor link `search` names (buildEditorLink's), or null; the server checks the ids. */
export function readEditorLink(search: string): EditorLink | null {
	const params = new URLSearchParams(search);
	const tool = params.get("tool") === "expand" ? "expand" : "region";
	const reopen = params.get("reopen") || null;
	const upload = params.get("upload");
	if (upload) return { source: { uploadId: upload }, tool, reopen };
	const generationId = params.get("generation");
	const image = params.get("image") ?? "";
	if (!generationId || !/^\d{1,2}$/.test(image)) return null;
	return { source: { generationId, imageIndex: Number(image) }, tool, reopen };
}

/** The editor tool a generation's action was made with (`edit-region`, `expand`), if any. */
export function readEditorToolOf(action: string): EditorTool | null {
	return action === "edit-region" ? "region" : action === "expand" ? "expand" : null;
}

/**
 * Use settings on an Edit region or Expand of an image of one's own generation, or of an upload the
 * server still holds: the editor on that image, reopening the edit's mask or frame; null for any
 * other generation (and once its image is gone).
 */
export function buildReopenEditorLink(
	generation: Pick<Generation, "id" | "parent">,
): string | null {
	const parent = generation.parent;
	const tool = parent ? readEditorToolOf(parent.action) : null;
	if (!parent || !tool) return null;
	if ("upload" in parent) {
		return parent.uploadId
			? buildEditorLink({ uploadId: parent.uploadId }, tool, generation.id)
			: null;
	}
	if (!parent.exists) return null;
	const source = { generationId: parent.generationId, imageIndex: parent.imageIndex };
	return buildEditorLink(source, tool, generation.id);
}
