import { z } from "zod";
import { createLogger } from "../../logging/logger";
import { httpUrlOption, optionalHttpUrlVariable, optionalString } from "../shared/config-fields";
import { PIXEL_SIZE_SETS } from "../shared/pixel-sizes";
import { defineProvider, ProviderOptionError } from "../shared/provider-definition";
import {
	COMFYUI_DEFAULT_INPUTS,
	COMFYUI_DEFAULT_SIZES,
	COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT,
} from "./comfyui-config";
import { createComfyUiProvider } from "./comfyui-provider";
import {
	BINDING_VARIABLES,
	type ComfyUiBindingKey,
	type ComfyUiBindings,
	type ComfyWorkflow,
	DEFAULT_WORKFLOW,
	findBindingProblems,
	type InputRef,
	parseInputRef,
} from "./comfyui-workflow";
import {
	imageWorkflowOption,
	inpaintWorkflowOption,
	inputRefOption,
	readImageWorkflow,
	readInpaintWorkflow,
	readUpscaleWorkflow,
	readWorkflowFile,
	resolvePath,
	upscaleWorkflowOption,
} from "./comfyui-workflow-files";

// `<node id>.<input name>` of a ComfyUI workflow, such as `6.text`.
const comfyInput = (fallback: string) => inputRefOption.optional().default(fallback);

// `<node id>.<input name>` or `none`, with no default (what unset means is the adapter's choice).
const optionalComfyInput = optionalString.pipe(
	z
		.string()
		.regex(/^([^.\s]+\.[^.\s]+|none)$/, "must be <node id>.<input name>, such as 7.text, or none")
		.optional(),
);

const COMFYUI_ENV = {
	COMFYUI_URL: optionalHttpUrlVariable,
	COMFYUI_AUTH_HEADER: optionalString.pipe(
		z
			.string()
			.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:\s*\S/, "must look like Header-Name: value")
			.optional(),
	),
	COMFYUI_WORKFLOW_FILE: optionalString,
	COMFYUI_PROMPT_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.prompt),
	COMFYUI_WIDTH_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.width),
	COMFYUI_HEIGHT_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.height),
	COMFYUI_BATCH_INPUT: z
		.string()
		.trim()
		.regex(
			/^([^.\s]+\.[^.\s]+|none)$/,
			"must be <node id>.<input name>, such as 5.batch_size, or none",
		)
		.optional()
		.default(COMFYUI_DEFAULT_INPUTS.batch),
	COMFYUI_SEED_INPUT: comfyInput(COMFYUI_DEFAULT_INPUTS.seed),
	/** Unset: the shipped workflow's negative text (7.text), none with your own workflow. */
	COMFYUI_NEGATIVE_PROMPT_INPUT: optionalComfyInput,
	COMFYUI_CHECKPOINT: optionalString,
	COMFYUI_SIZES: z.enum(PIXEL_SIZE_SETS).optional().default(COMFYUI_DEFAULT_SIZES),
};
type ComfyUiEnv = z.output<z.ZodObject<typeof COMFYUI_ENV>>;

const COMFYUI_INPUTS_OPTION = z.strictObject({
	prompt: inputRefOption.optional(),
	width: inputRefOption.optional(),
	height: inputRefOption.optional(),
	batch: z.union([inputRefOption, z.literal("none")]).optional(),
	seed: inputRefOption.optional(),
	/** `none` for a workflow whose negative text should stay as it is. */
	negativePrompt: z.union([inputRefOption, z.literal("none")]).optional(),
});
type ComfyUiInputs = z.infer<typeof COMFYUI_INPUTS_OPTION>;

/** ComfyUI: its variables, its MODELS_FILE options (each falling back to its variable). */
export const COMFYUI_PROVIDER = defineProvider({
	label: "ComfyUI",
	env: COMFYUI_ENV,
	requires: "COMFYUI_URL",
	imageInputNeeds: "an image-to-image workflow (imageWorkflow)",
	upscaleNeeds: "an upscale workflow (upscaleWorkflow)",
	maskNeeds: "an inpaint workflow (inpaintWorkflow)",
	options: {
		url: httpUrlOption.optional(),
		/** A workflow in ComfyUI's API format; relative to the models file. */
		workflowFile: z.string().min(1).optional(),
		inputs: COMFYUI_INPUTS_OPTION.optional(),
		imageWorkflow: imageWorkflowOption.optional(),
		upscaleWorkflow: upscaleWorkflowOption.optional(),
		inpaintWorkflow: inpaintWorkflowOption.optional(),
		checkpoint: z.string().min(1).optional(),
		sizes: z.enum(PIXEL_SIZE_SETS).optional(),
	},
	create(options, { env, baseDir }) {
		const url = options.url ?? env.COMFYUI_URL;
		if (!url) {
			throw new ProviderOptionError("url", "is required (or COMFYUI_URL in the environment)");
		}
		const workflowFile = options.workflowFile
			? resolvePath(baseDir, options.workflowFile)
			: env.COMFYUI_WORKFLOW_FILE;
		const workflow = workflowFile
			? readWorkflowFile(
					workflowFile,
					options.workflowFile ? "workflowFile" : "COMFYUI_WORKFLOW_FILE",
				)
			: DEFAULT_WORKFLOW;
		const bindings = readBindings(options.inputs ?? {}, env, workflowFile !== undefined);
		checkBindings(workflow, bindings, options.inputs ?? {});
		// The shipped image workflows go with the shipped text workflow (the same checkpoint).
		const isShipped = workflowFile === undefined;
		const imageWorkflow = readImageWorkflow(options.imageWorkflow, isShipped, baseDir);
		const upscaleWorkflow = readUpscaleWorkflow(options.upscaleWorkflow, isShipped, baseDir);
		const inpaintWorkflow = readInpaintWorkflow(options.inpaintWorkflow, isShipped, baseDir);
		const checkpoint = options.checkpoint ?? env.COMFYUI_CHECKPOINT;
		return createComfyUiProvider({
			url,
			workflow,
			bindings,
			...(imageWorkflow ? { imageWorkflow } : {}),
			...(upscaleWorkflow ? { upscaleWorkflow } : {}),
			...(inpaintWorkflow ? { inpaintWorkflow } : {}),
			...(checkpoint ? { checkpoint } : {}),
			sizes: options.sizes ?? env.COMFYUI_SIZES,
			...(env.COMFYUI_AUTH_HEADER ? { authHeader: splitHeader(env.COMFYUI_AUTH_HEADER) } : {}),
			maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
			logger: createLogger(env.LOG_LEVEL),
		});
	},
});

/**
 * Where each value goes: the entry's `inputs`, else the environment's. A negative prompt goes to
 * the shipped workflow's negative text by default; your own workflow takes none until one is named.
 */
function readBindings(
	inputs: ComfyUiInputs,
	env: ComfyUiEnv,
	hasOwnWorkflow: boolean,
): ComfyUiBindings {
	const read = (value: string, key: ComfyUiBindingKey): InputRef => {
		const ref = parseInputRef(value);
		if (!ref) {
			throw new ProviderOptionError(
				bindingName(inputs, key),
				`must be <node id>.<input name>: ${value}`,
			);
		}
		return ref;
	};
	const batch = inputs.batch ?? env.COMFYUI_BATCH_INPUT;
	const negativePrompt =
		inputs.negativePrompt ??
		env.COMFYUI_NEGATIVE_PROMPT_INPUT ??
		(hasOwnWorkflow ? "none" : COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT);
	return {
		prompt: read(inputs.prompt ?? env.COMFYUI_PROMPT_INPUT, "prompt"),
		width: read(inputs.width ?? env.COMFYUI_WIDTH_INPUT, "width"),
		height: read(inputs.height ?? env.COMFYUI_HEIGHT_INPUT, "height"),
		batch: batch === "none" ? null : read(batch, "batch"),
		seed: read(inputs.seed ?? env.COMFYUI_SEED_INPUT, "seed"),
		negativePrompt: negativePrompt === "none" ? null : read(negativePrompt, "negativePrompt"),
	};
}

/**
 * Refuses, naming where each came from (the entry's `inputs.*` field, or the environment
 * variable it fell back to), every binding the workflow does not hold as a value.
 */
function checkBindings(
	workflow: ComfyWorkflow,
	bindings: ComfyUiBindings,
	inputs: ComfyUiInputs,
): void {
	const problems = findBindingProblems(workflow, bindings);
	if (problems.length === 0) return;
	throw new ProviderOptionError(
		problems.map((problem) => ({
			field: bindingName(inputs, problem.key),
			message: problem.message,
		})),
	);
}

function bindingName(inputs: ComfyUiInputs, key: ComfyUiBindingKey): string {
	return inputs[key] === undefined ? BINDING_VARIABLES[key] : `inputs.${key}`;
}

function splitHeader(header: string): { name: string; value: string } {
	const separator = header.indexOf(":");
	return { name: header.slice(0, separator).trim(), value: header.slice(separator + 1).trim() };
}
