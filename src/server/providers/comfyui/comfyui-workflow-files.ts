import { readFileSync } from "node:fs";
import { z } from "zod";
import { ProviderOptionError } from "../shared/provider-definition";
import {
	type ComfyUiInpaintBindings,
	type ComfyUiInpaintWorkflow,
	DEFAULT_INPAINT_WORKFLOW,
	findInpaintProblems,
} from "./comfyui-inpaint";
import {
	type ComfyUiImageBindings,
	type ComfyUiImageWorkflow,
	type ComfyUiUpscaleBindings,
	type ComfyUiUpscaleWorkflow,
	type ComfyWorkflow,
	DEFAULT_IMAGE_WORKFLOW,
	DEFAULT_UPSCALE_WORKFLOW,
	findInputProblems,
	IMAGE_BINDING_KEYS,
	IMAGE_BINDING_NODE_CLASSES,
	type InputRef,
	parseInputRef,
	parseWorkflowText,
	UPSCALE_BINDING_KEYS,
} from "./comfyui-workflow";

// The workflow files a ComfyUI entry names, read and checked at start: every problem names the
// entry's field it comes from.

/** `<node id>.<input name>` of a workflow, as an option. */
export const inputRefOption = z
	.string()
	.trim()
	.regex(/^[^.\s]+\.[^.\s]+$/, "must be <node id>.<input name>, such as 6.text");

/**
 * The image-to-image workflow (Vary, Edit) and where it takes each value; the shipped one goes
 * with the shipped text workflow, your own text workflow has none until it is named.
 */
export const imageWorkflowOption = z.strictObject({
	workflowFile: z.string().min(1).optional(),
	inputs: z
		.strictObject({
			image: inputRefOption.optional(),
			denoise: inputRefOption.optional(),
			prompt: inputRefOption.optional(),
			seed: inputRefOption.optional(),
			negativePrompt: z.union([inputRefOption, z.literal("none")]).optional(),
			width: z.union([inputRefOption, z.literal("none")]).optional(),
			height: z.union([inputRefOption, z.literal("none")]).optional(),
			batch: z.union([inputRefOption, z.literal("none")]).optional(),
		})
		.optional(),
});

/** The upscale workflow, where it takes the image and the factor, and the factors offered. */
export const upscaleWorkflowOption = z.strictObject({
	workflowFile: z.string().min(1).optional(),
	inputs: z
		.strictObject({ image: inputRefOption.optional(), factor: inputRefOption.optional() })
		.optional(),
	factors: z
		.array(z.union([z.literal(2), z.literal(4)], { error: "must list 2, 4 or both" }))
		.min(1, "must list at least one factor")
		.refine((list) => new Set(list).size === list.length, "must not name a factor twice")
		.optional(),
});

/**
 * The inpaint workflow (Edit region, Expand) and where it takes each value; the shipped one goes
 * with the shipped text workflow, your own text workflow has none until it is named.
 */
export const inpaintWorkflowOption = z.strictObject({
	workflowFile: z.string().min(1).optional(),
	inputs: z
		.strictObject({
			image: inputRefOption.optional(),
			prompt: inputRefOption.optional(),
			seed: inputRefOption.optional(),
			negativePrompt: z.union([inputRefOption, z.literal("none")]).optional(),
			batch: z.union([inputRefOption, z.literal("none")]).optional(),
		})
		.optional(),
});

type ImageWorkflowOptions = z.infer<typeof imageWorkflowOption>;
type InpaintWorkflowOptions = z.infer<typeof inpaintWorkflowOption>;
type UpscaleWorkflowOptions = z.infer<typeof upscaleWorkflowOption>;

/** Reads a path relative to the models file (absolute paths as they are). */
export function resolvePath(baseDir: string, file: string): string {
	return file.startsWith("/") ? file : `${baseDir.replace(/\/+$/, "")}/${file}`;
}

/** Reads and parses a workflow file, naming `field` (the option or variable that named it). */
export function readWorkflowFile(path: string, field: string): ComfyWorkflow {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		throw new ProviderOptionError(field, `cannot be read: ${detail}`);
	}
	try {
		return parseWorkflowText(text, path);
	} catch (error) {
		throw new ProviderOptionError(field, error instanceof Error ? error.message : String(error));
	}
}

/**
 * The image-to-image workflow an entry names (its own file, or the shipped one), else the shipped
 * one beside the shipped text workflow. Inputs left out are the shipped workflow's; with your own
 * file the optional ones (negative prompt, size, batch) are none until named.
 */
export function readImageWorkflow(
	options: ImageWorkflowOptions | undefined,
	isShipped: boolean,
	baseDir: string,
): ComfyUiImageWorkflow | undefined {
	if (!options) return isShipped ? DEFAULT_IMAGE_WORKFLOW : undefined;
	const ownFile = options.workflowFile;
	const workflow = ownFile
		? readWorkflowFile(resolvePath(baseDir, ownFile), "imageWorkflow.workflowFile")
		: DEFAULT_IMAGE_WORKFLOW.workflow;
	const inputs = options.inputs ?? {};
	const shipped = DEFAULT_IMAGE_WORKFLOW.bindings;
	const pick = (key: keyof typeof inputs, fallback: InputRef): InputRef =>
		toRef(inputs[key], `imageWorkflow.inputs.${key}`) ?? fallback;
	const pickOptional = (key: "negativePrompt" | "width" | "height" | "batch"): InputRef | null => {
		const value = inputs[key];
		if (value === "none") return null;
		return toRef(value, `imageWorkflow.inputs.${key}`) ?? (ownFile ? null : shipped[key]);
	};
	const bindings: ComfyUiImageBindings = {
		image: pick("image", shipped.image),
		denoise: pick("denoise", shipped.denoise),
		prompt: pick("prompt", shipped.prompt),
		seed: pick("seed", shipped.seed),
		negativePrompt: pickOptional("negativePrompt"),
		width: pickOptional("width"),
		height: pickOptional("height"),
		batch: pickOptional("batch"),
	};
	checkWorkflowInputs(
		"imageWorkflow",
		workflow,
		bindings,
		IMAGE_BINDING_KEYS,
		IMAGE_BINDING_NODE_CLASSES,
	);
	return { workflow, bindings };
}

/** The upscale workflow an entry names, else the shipped one beside the shipped text workflow. */
export function readUpscaleWorkflow(
	options: UpscaleWorkflowOptions | undefined,
	isShipped: boolean,
	baseDir: string,
): ComfyUiUpscaleWorkflow | undefined {
	if (!options) return isShipped ? DEFAULT_UPSCALE_WORKFLOW : undefined;
	const workflow = options.workflowFile
		? readWorkflowFile(resolvePath(baseDir, options.workflowFile), "upscaleWorkflow.workflowFile")
		: DEFAULT_UPSCALE_WORKFLOW.workflow;
	const shipped = DEFAULT_UPSCALE_WORKFLOW.bindings;
	const bindings: ComfyUiUpscaleBindings = {
		image: toRef(options.inputs?.image, "upscaleWorkflow.inputs.image") ?? shipped.image,
		factor: toRef(options.inputs?.factor, "upscaleWorkflow.inputs.factor") ?? shipped.factor,
	};
	checkWorkflowInputs(
		"upscaleWorkflow",
		workflow,
		bindings,
		UPSCALE_BINDING_KEYS,
		IMAGE_BINDING_NODE_CLASSES,
	);
	return { workflow, bindings, factors: options.factors ?? DEFAULT_UPSCALE_WORKFLOW.factors };
}

/**
 * The inpaint workflow an entry names (its own file, or the shipped one), else the shipped one
 * beside the shipped text workflow. Inputs left out are the shipped workflow's; with your own file
 * the optional ones (negative prompt, batch) are none until named. The image's LoadImage node must
 * hand its MASK output on, checked here.
 */
export function readInpaintWorkflow(
	options: InpaintWorkflowOptions | undefined,
	isShipped: boolean,
	baseDir: string,
): ComfyUiInpaintWorkflow | undefined {
	if (!options) return isShipped ? DEFAULT_INPAINT_WORKFLOW : undefined;
	const ownFile = options.workflowFile;
	const workflow = ownFile
		? readWorkflowFile(resolvePath(baseDir, ownFile), "inpaintWorkflow.workflowFile")
		: DEFAULT_INPAINT_WORKFLOW.workflow;
	const inputs = options.inputs ?? {};
	const shipped = DEFAULT_INPAINT_WORKFLOW.bindings;
	const pick = (key: "image" | "prompt" | "seed"): InputRef =>
		toRef(inputs[key], `inpaintWorkflow.inputs.${key}`) ?? shipped[key];
	const pickOptional = (key: "negativePrompt" | "batch"): InputRef | null => {
		const value = inputs[key];
		if (value === "none") return null;
		return toRef(value, `inpaintWorkflow.inputs.${key}`) ?? (ownFile ? null : shipped[key]);
	};
	const bindings: ComfyUiInpaintBindings = {
		image: pick("image"),
		prompt: pick("prompt"),
		seed: pick("seed"),
		negativePrompt: pickOptional("negativePrompt"),
		batch: pickOptional("batch"),
	};
	const problems = findInpaintProblems({ workflow, bindings });
	if (problems.length > 0) {
		throw new ProviderOptionError(
			problems.map((problem) => ({
				field: `inpaintWorkflow.inputs.${problem.key}`,
				message: problem.message,
			})),
		);
	}
	return { workflow, bindings };
}

function toRef(value: string | undefined, field: string): InputRef | undefined {
	if (value === undefined) return undefined;
	const ref = parseInputRef(value);
	if (!ref) throw new ProviderOptionError(field, `must be <node id>.<input name>: ${value}`);
	return ref;
}

/**
 * Refuses, naming `<workflow>.inputs.<key>`, every input the workflow does not hold as a value, and
 * an image bound anywhere but a LoadImage node (where Atelier names the file it uploads).
 */
function checkWorkflowInputs<Key extends string>(
	name: string,
	workflow: ComfyWorkflow,
	bindings: Record<Key, InputRef | null>,
	keys: readonly Key[],
	nodeClasses: Partial<Record<Key, string>>,
): void {
	const problems = findInputProblems(workflow, bindings, keys, nodeClasses);
	if (problems.length === 0) return;
	throw new ProviderOptionError(
		problems.map((problem) => ({
			field: `${name}.inputs.${problem.key}`,
			message: problem.message,
		})),
	);
}
