import { type GenerationInput, type ImageCapabilities, type InputImage, TEXT_ONLY } from "../types";

// How a hosted model (Replicate, fal) takes an image: in one of its inputs, named by the operator
// because every model names it differently (`image`, `image_url`, `input_image`).

/**
 * The inputs of a model that takes an image. A model with `scale` is an upscaler: it makes no
 * image from a prompt, only `factors` times the image it is given.
 */
export type HostedImageInputs = {
	/** The input that takes the image, such as Replicate's `image` or fal's `image_url`. */
	image: string;
	/** The input for the reference strength (0 to 1, as denoise means it), such as `prompt_strength`. */
	strength?: string;
	/** An upscaler's factor input (such as `scale`) and the factors it is offered at. */
	upscale?: { scale: string; factors: readonly number[] };
	/**
	 * The input that takes a region's mask (an inpainting model's `mask`, FLUX Fill's `mask_url`):
	 * white where the image may change, as Atelier keeps it. With it the model edits regions and
	 * expands frames, unless `outpaint` is false.
	 */
	mask?: string;
	outpaint?: boolean;
};

/**
 * The image as a data URI (`data:image/png;base64,...`), which Replicate and fal both take in a
 * file input. A third larger than the file, and carried in the request's JSON: Atelier's
 * uploads are at most 20 MB, so the body stays within what both accept for inline files.
 */
export function toDataUri(image: InputImage): string {
	return `data:${image.contentType};base64,${Buffer.from(image.data).toString("base64")}`;
}

/**
 * Room for an image sent as a data URI to come back in an answer: Replicate's predictions echo
 * their input. Atelier's largest upload (20 MB) in base64, with some to spare.
 */
export const ECHOED_IMAGE_BYTES = 28 * 1024 * 1024;

/**
 * What a model does with images, from the inputs its entry names (none: text only). It honours a
 * reference strength only where the entry names the input it goes in (`strengthInput`); without
 * one the model decides by itself how far to move from the image. An upscaler (Real-ESRGAN and the
 * like) is taken to add detail: Atelier cannot tell, and a hosted upscaler is there to do so.
 */
export function describeHostedImageCapabilities(
	inputs: HostedImageInputs | undefined,
): ImageCapabilities {
	if (!inputs) return TEXT_ONLY;
	if (inputs.upscale) {
		return { ...TEXT_ONLY, textToImage: false, upscaleFactors: inputs.upscale.factors };
	}
	return {
		...TEXT_ONLY,
		imageInput: true,
		referenceStrength: inputs.strength !== undefined,
		mask: inputs.mask !== undefined,
		outpaint: inputs.mask !== undefined && inputs.outpaint !== false,
	};
}

/** The model inputs that carry a generation's image (none for a generation from a prompt). */
export function toHostedImageFields(
	input: GenerationInput,
	inputs: HostedImageInputs | undefined,
): Record<string, unknown> {
	const instruction = input.image;
	if (!instruction || !inputs) return {};
	const fields: Record<string, unknown> = { [inputs.image]: toDataUri(instruction.image) };
	if (instruction.kind === "upscale") {
		if (inputs.upscale) fields[inputs.upscale.scale] = instruction.factor;
	} else if (instruction.kind === "region") {
		// White = change, as the model's mask input takes it: the mask goes as it is kept.
		if (inputs.mask) fields[inputs.mask] = toDataUri(instruction.mask);
	} else if (inputs.strength) {
		fields[inputs.strength] = instruction.strength;
	}
	return fields;
}

/** Whether a generation is an upscale, which sends only the image, its factor and extra input. */
export function isUpscale(input: GenerationInput): boolean {
	return input.image?.kind === "upscale";
}
