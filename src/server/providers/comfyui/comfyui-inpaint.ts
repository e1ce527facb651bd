import sharp from "sharp";
import { runImageWork } from "../../images/image-work";
import type { InputImage } from "../types";
import { COMFYUI_SHIPPED_INPAINT_INPUTS } from "./comfyui-config";
import {
	type ComfyWorkflow,
	ComfyWorkflowSchema,
	findInputProblems,
	IMAGE_BINDING_NODE_CLASSES,
	type InputRef,
	toDefaultRef,
} from "./comfyui-workflow";
import defaultInpaintWorkflowJson from "./default-inpaint-workflow.json";

// Edit region and Expand on ComfyUI (docs/decisions/033-region-edit.md): the image and its mask
// travel as one RGBA PNG, the mask in its alpha, which a LoadImage node reads as its MASK output
// (transparent = change, as ComfyUI's own mask editor saves it).

/**
 * Where an inpaint workflow takes each value: `image` is a LoadImage node's file name (the image
 * with the mask as its alpha, uploaded first), whose MASK output the workflow must use (a
 * VAEEncodeForInpaint's or InpaintModelConditioning's `mask`). `negativePrompt` and `batch` (a
 * RepeatLatentBatch's amount) may be null: the workflow's own negative text, one prompt per image.
 */
export type ComfyUiInpaintBindings = {
	image: InputRef;
	prompt: InputRef;
	negativePrompt: InputRef | null;
	seed: InputRef;
	batch: InputRef | null;
};

/** A workflow that repaints the masked region of an image, and where its values go. */
export type ComfyUiInpaintWorkflow = { workflow: ComfyWorkflow; bindings: ComfyUiInpaintBindings };

export const INPAINT_BINDING_KEYS = [
	"image",
	"prompt",
	"negativePrompt",
	"seed",
	"batch",
] as const satisfies readonly (keyof ComfyUiInpaintBindings)[];

/** The shipped inpaint workflow, used with the shipped text workflow (the same checkpoint). */
export const DEFAULT_INPAINT_WORKFLOW: ComfyUiInpaintWorkflow = {
	workflow: ComfyWorkflowSchema.parse(defaultInpaintWorkflowJson),
	bindings: {
		image: toDefaultRef(COMFYUI_SHIPPED_INPAINT_INPUTS.image),
		prompt: toDefaultRef(COMFYUI_SHIPPED_INPAINT_INPUTS.prompt),
		negativePrompt: toDefaultRef(COMFYUI_SHIPPED_INPAINT_INPUTS.negativePrompt),
		seed: toDefaultRef(COMFYUI_SHIPPED_INPAINT_INPUTS.seed),
		batch: toDefaultRef(COMFYUI_SHIPPED_INPAINT_INPUTS.batch),
	},
};

// LoadImage's outputs are IMAGE (0) and MASK (1).
const MASK_OUTPUT = 1;

/**
 * Every binding of an inpaint workflow that does not fit it (as findInputProblems says), and the
 * image's LoadImage node when nothing in the workflow takes its MASK output: the mask would be
 * uploaded and never used, and the whole image repainted.
 */
export function findInpaintProblems(
	inpaint: ComfyUiInpaintWorkflow,
): { key: keyof ComfyUiInpaintBindings; message: string }[] {
	const { workflow, bindings } = inpaint;
	const problems = findInputProblems(
		workflow,
		bindings,
		INPAINT_BINDING_KEYS,
		IMAGE_BINDING_NODE_CLASSES,
	);
	if (problems.some((problem) => problem.key === "image")) return problems;
	const imageNode = bindings.image.node;
	const isMaskTaken = Object.values(workflow).some((node) =>
		Object.values(node.inputs).some(
			(value) => Array.isArray(value) && value[0] === imageNode && value[1] === MASK_OUTPUT,
		),
	);
	if (!isMaskTaken) {
		problems.push({
			key: "image",
			message: `${imageNode}.${bindings.image.input}: nothing in the workflow takes node "${imageNode}"'s MASK output; the mask reaches ComfyUI as the image's alpha, so a VAEEncodeForInpaint or InpaintModelConditioning node must take its mask from ["${imageNode}", ${MASK_OUTPUT}]`,
		});
	}
	return problems;
}

/** Throws, at boot, one error listing every problem of the inpaint workflow. */
export function assertInpaintWorkflow(inpaint: ComfyUiInpaintWorkflow | undefined): void {
	const problems = inpaint ? findInpaintProblems(inpaint) : [];
	if (problems.length === 0) return;
	throw new Error(
		`The ComfyUI inpaint workflow does not fit its bindings:\n  - ${problems
			.map((problem) => `inpaintWorkflow.inputs.${problem.key}: ${problem.message}`)
			.join("\n  - ")}`,
	);
}

/**
 * The image and Atelier's mask as ComfyUI's LoadImage takes them: one RGBA PNG, the image's
 * colours and an alpha the inverse of the mask's grey (LoadImage's MASK is 1 minus the alpha, so
 * a transparent pixel may change). An image of more than `maxPixels` is scaled down, keeping its
 * proportions, to the pixels the workflow's checkpoint is made for; both sides are multiples of 8
 * (the latent's cells). The result is scaled back to the source's size when it is laid over it.
 */
export async function toInpaintImage(
	image: InputImage,
	mask: InputImage,
	maxPixels: number,
): Promise<InputImage> {
	const scale = Math.min(1, Math.sqrt(maxPixels / (image.width * image.height)));
	const toCells = (side: number) => Math.max(8, Math.round((side * scale) / 8) * 8);
	const width = toCells(image.width);
	const height = toCells(image.height);
	const colours = await runImageWork(() =>
		sharp(image.data).resize(width, height, { fit: "fill" }).removeAlpha().raw().toBuffer(),
	);
	const grey = await runImageWork(() =>
		sharp(mask.data).resize(width, height, { fit: "fill" }).extractChannel(0).raw().toBuffer(),
	);
	const rgba = Buffer.alloc(width * height * 4);
	for (let pixel = 0; pixel < width * height; pixel++) {
		rgba[pixel * 4] = colours[pixel * 3] ?? 0;
		rgba[pixel * 4 + 1] = colours[pixel * 3 + 1] ?? 0;
		rgba[pixel * 4 + 2] = colours[pixel * 3 + 2] ?? 0;
		rgba[pixel * 4 + 3] = 255 - (grey[pixel] ?? 0);
	}
	const data = await runImageWork(() =>
		sharp(rgba, { raw: { width, height, channels: 4 } })
			.png()
			.toBuffer(),
	);
	return { data: new Uint8Array(data), contentType: "image/png", width, height };
}
