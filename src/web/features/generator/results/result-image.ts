// One image of what the generator's results or preview show, as Vary, Upscale and Edit name it.
// Loaded with the results and the preview, not with the first page.

import type { AspectRatio } from "../../../../shared/generations/aspect-ratios";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { ImmediateAction } from "../../../lib/generations/image-actions";
import type { CompletedState, GeneratedRequest } from "../flow/generation-state";
import type { ReferenceImage } from "../reference/reference-image";

/** What the results or the preview show: the results, or a generation of their family. */
export type ShownGeneration = Pick<
	CompletedState,
	"generationId" | "images" | "request" | "recipe" | "family"
>;

/** One image of a generation shown: its parent's part of a start, and its thumbnail for Edit. */
export type ResultImage = {
	generationId: string;
	imageIndex: number;
	prompt: string;
	aspectRatio: CompletedState["request"]["aspectRatio"];
	thumbnailUrl: string;
};

export function describeResultImage(shown: ShownGeneration, imageIndex: number): ResultImage {
	return {
		generationId: shown.generationId,
		imageIndex,
		prompt: shown.request.prompt,
		aspectRatio: shown.request.aspectRatio,
		thumbnailUrl: shown.images[imageIndex]?.thumbnailUrl ?? "",
	};
}

/** A generation of the family, shown in the preview as the results are. */
export function showGeneration(generation: Generation): ShownGeneration {
	return {
		generationId: generation.id,
		images: generation.images,
		request: { prompt: generation.prompt, aspectRatio: generation.aspect_ratio },
		recipe: { model: generation.model, settings: generation.settings },
		family: { parent: generation.parent, childrenCount: generation.childrenCount },
	};
}

/**
 * Vary or Upscale of one image shown, as the generator starts it (and Try Again repeats it): the
 * parent's prompt and ratio are for the screen; the server takes them from the parent.
 */
export function buildImageActionStart(
	action: ImmediateAction,
	{ generationId, imageIndex, prompt, aspectRatio }: ResultImage,
	factor?: number,
): GeneratedRequest {
	return {
		prompt,
		aspectRatio,
		image: { action, reference: { generationId, imageIndex }, factor },
	};
}

/** What Edit changes on the generator's form (use-generator-form.ts gives it). */
export type EditTarget = {
	setPrompt: (prompt: string) => void;
	setAspectRatio: (aspectRatio: AspectRatio) => void;
	chooseReference: (image: ReferenceImage) => void;
	promptRef: { current: HTMLTextAreaElement | null };
};

/** Edit: the image becomes the form's reference, its prompt and ratio fill the form to be changed. */
export function editImage(form: EditTarget, image: ResultImage): void {
	const { generationId, imageIndex, thumbnailUrl } = image;
	form.chooseReference({ input: { generationId, imageIndex }, thumbnailUrl });
	form.setPrompt(image.prompt);
	form.setAspectRatio(image.aspectRatio);
	form.promptRef.current?.focus();
}
