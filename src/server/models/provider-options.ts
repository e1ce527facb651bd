import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Env } from "../config/env";
import { createLogger } from "../logging/logger";
import { COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT } from "../providers/comfyui/comfyui-config";
import { createComfyUiProvider } from "../providers/comfyui/comfyui-provider";
import {
	BINDING_VARIABLES,
	type ComfyUiBindingKey,
	type ComfyUiBindings,
	type ComfyUiImageBindings,
	type ComfyUiImageWorkflow,
	type ComfyUiUpscaleBindings,
	type ComfyUiUpscaleWorkflow,
	type ComfyWorkflow,
	DEFAULT_IMAGE_WORKFLOW,
	DEFAULT_UPSCALE_WORKFLOW,
	DEFAULT_WORKFLOW,
	findBindingProblems,
	findInputProblems,
	IMAGE_BINDING_KEYS,
	IMAGE_BINDING_NODE_CLASSES,
	type InputRef,
	parseInputRef,
	parseWorkflowText,
	UPSCALE_BINDING_KEYS,
} from "../providers/comfyui/comfyui-workflow";
import { FAL_MODEL_PATTERN, FAL_RATIO_INPUTS } from "../providers/fal/fal-config";
import { createFalProvider } from "../providers/fal/fal-provider";
import { createHttpProvider } from "../providers/http/http-provider";
import { createLocalProvider } from "../providers/local/local-provider";
import { OPENAI_QUALITIES, OPENAI_SIZE_MODES } from "../providers/openai/openai-config";
import { createOpenAiProvider } from "../providers/openai/openai-provider";
import { REPLICATE_MODEL_PATTERN } from "../providers/replicate/replicate-config";
import { createReplicateProvider } from "../providers/replicate/replicate-provider";
import type { HostedImageInputs } from "../providers/shared/hosted-image-input";
import {
	MODEL_INPUT_NAME_MESSAGE,
	MODEL_INPUT_NAME_PATTERN,
	NO_SEED_INPUT,
} from "../providers/shared/input-names";
import { PIXEL_SIZE_SETS } from "../providers/shared/pixel-sizes";
import type { ImageProvider } from "../providers/types";

// Each provider's own options in a MODELS_FILE entry, and how a provider is built from them. An
// option an entry leaves out falls back to the provider's environment variable (and its default),
// so the catalogue without MODELS_FILE is simply an entry with no options. Secrets are never
// options: they stay in the environment.

export const PROVIDER_NAMES = ["local", "http", "comfyui", "replicate", "openai", "fal"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Where relative paths in an entry (a ComfyUI workflow file) are read from, and the environment. */
export type ProviderContext = { env: Env; baseDir: string };

const inputRef = z
	.string()
	.trim()
	.regex(/^[^.\s]+\.[^.\s]+$/, "must be <node id>.<input name>, such as 6.text");

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const imagesPerRequest = z.number().int().min(1).max(4);
const inputObject = z.record(z.string(), z.unknown());
const modelInputName = z.string().trim().regex(MODEL_INPUT_NAME_PATTERN, MODEL_INPUT_NAME_MESSAGE);
/** The model's seed input, or `none` for a model that takes no seed. */
const seedInputName = z.union([modelInputName, z.literal(NO_SEED_INPUT)], {
	error: `${MODEL_INPUT_NAME_MESSAGE}, or ${NO_SEED_INPUT}`,
});

/** The options of each provider, as an entry writes them (beside the entry's common fields). */
export const PROVIDER_OPTION_SHAPES = {
	local: {
		/** How long a job reports "running" before it renders. */
		delayMs: z.number().int().min(0).max(60_000).optional(),
	},
	http: {
		url: httpUrl.optional(),
	},
	comfyui: {
		url: httpUrl.optional(),
		/** A workflow in ComfyUI's API format; relative to the models file. */
		workflowFile: z.string().min(1).optional(),
		inputs: z
			.strictObject({
				prompt: inputRef.optional(),
				width: inputRef.optional(),
				height: inputRef.optional(),
				batch: z.union([inputRef, z.literal("none")]).optional(),
				seed: inputRef.optional(),
				/** `none` for a workflow whose negative text should stay as it is. */
				negativePrompt: z.union([inputRef, z.literal("none")]).optional(),
			})
			.optional(),
		/**
		 * The image-to-image workflow (Vary, Edit) and where it takes each value; the shipped one
		 * goes with the shipped text workflow, your own text workflow has none until it is named.
		 */
		imageWorkflow: z
			.strictObject({
				workflowFile: z.string().min(1).optional(),
				inputs: z
					.strictObject({
						image: inputRef.optional(),
						denoise: inputRef.optional(),
						prompt: inputRef.optional(),
						seed: inputRef.optional(),
						negativePrompt: z.union([inputRef, z.literal("none")]).optional(),
						width: z.union([inputRef, z.literal("none")]).optional(),
						height: z.union([inputRef, z.literal("none")]).optional(),
						batch: z.union([inputRef, z.literal("none")]).optional(),
					})
					.optional(),
			})
			.optional(),
		/** The upscale workflow, where it takes the image and the factor, and the factors offered. */
		upscaleWorkflow: z
			.strictObject({
				workflowFile: z.string().min(1).optional(),
				inputs: z
					.strictObject({ image: inputRef.optional(), factor: inputRef.optional() })
					.optional(),
				factors: z
					.array(z.union([z.literal(2), z.literal(4)], { error: "must list 2, 4 or both" }))
					.min(1, "must list at least one factor")
					.refine((list) => new Set(list).size === list.length, "must not name a factor twice")
					.optional(),
			})
			.optional(),
		checkpoint: z.string().min(1).optional(),
		sizes: z.enum(PIXEL_SIZE_SETS).optional(),
	},
	replicate: {
		model: z
			.string()
			.regex(
				REPLICATE_MODEL_PATTERN,
				"must be owner/name, owner/name:<version> or a 64-hex version",
			)
			.optional(),
		input: inputObject.optional(),
		imagesPerPrediction: imagesPerRequest.optional(),
		seedInput: seedInputName.optional(),
		negativePromptInput: modelInputName.optional(),
		/** The model's reference strength input (0 to 1), with `imageInput` naming its image input. */
		strengthInput: modelInputName.optional(),
		/** An upscaler's factor input, with `imageInput` and `upscale` (its factors). */
		scaleInput: modelInputName.optional(),
	},
	openai: {
		model: z.string().min(1).optional(),
		quality: z.enum(OPENAI_QUALITIES).optional(),
		sizes: z.enum(OPENAI_SIZE_MODES).optional(),
	},
	fal: {
		model: z
			.string()
			.regex(FAL_MODEL_PATTERN, "must look like owner/app[/path], such as fal-ai/flux/schnell")
			.optional(),
		input: inputObject.optional(),
		ratioInput: z.enum(FAL_RATIO_INPUTS).optional(),
		imagesPerRequest: imagesPerRequest.optional(),
		seedInput: seedInputName.optional(),
		negativePromptInput: modelInputName.optional(),
		/** The model's reference strength input (0 to 1), with `imageInput` naming its image input. */
		strengthInput: modelInputName.optional(),
		/** An upscaler's factor input, with `imageInput` and `upscale` (its factors). */
		scaleInput: modelInputName.optional(),
	},
} as const;

/**
 * What an entry's common fields say of images, which a hosted model (Replicate, fal) is built
 * from: there `imageInput` names the model's image input and `upscale` an upscaler's factors.
 */
export type EntryImageFields = { imageInput?: boolean | string; upscale?: readonly number[] };

type OptionsOf<Name extends ProviderName> = z.infer<
	z.ZodObject<(typeof PROVIDER_OPTION_SHAPES)[Name]>
>;

/** Problems with options of an entry: which option, and what is wrong with it. */
export class ProviderOptionError extends Error {
	readonly problems: readonly { field: string; message: string }[];
	constructor(field: string, message: string);
	constructor(problems: readonly { field: string; message: string }[]);
	constructor(
		fieldOrProblems: string | readonly { field: string; message: string }[],
		message = "",
	) {
		const problems =
			typeof fieldOrProblems === "string" ? [{ field: fieldOrProblems, message }] : fieldOrProblems;
		super(problems.map((problem) => `${problem.field}: ${problem.message}`).join("; "));
		this.problems = problems;
	}
}

/** Reads a provider's options; an unknown option (a typo) is a problem too. */
function parseOptions<Shape extends z.ZodRawShape>(
	shape: Shape,
	options: Record<string, unknown>,
): z.infer<z.ZodObject<Shape>> {
	const result = z.strictObject(shape).safeParse(options);
	if (result.success) return result.data;
	throw new ProviderOptionError(
		result.error.issues.flatMap((issue) =>
			issue.code === "unrecognized_keys"
				? issue.keys.map((key) => ({
						field: [...issue.path, key].join("."),
						message: "is not an option of this provider",
					}))
				: [{ field: issue.path.join("."), message: issue.message }],
		),
	);
}

function requireValue(value: string | undefined, field: string, variable: string): string {
	if (!value) throw new ProviderOptionError(field, `needs ${variable} in the environment`);
	return value;
}

/** Builds the provider an entry (or, with no options, the environment) describes. */
export function createProvider(
	name: ProviderName,
	options: Record<string, unknown>,
	context: ProviderContext,
	image: EntryImageFields = {},
): ImageProvider {
	switch (name) {
		case "local":
			return createLocal(parseOptions(PROVIDER_OPTION_SHAPES.local, options), context);
		case "http":
			return createHttp(parseOptions(PROVIDER_OPTION_SHAPES.http, options), context);
		case "comfyui":
			return createComfyUi(parseOptions(PROVIDER_OPTION_SHAPES.comfyui, options), context);
		case "replicate":
			return createReplicate(
				parseOptions(PROVIDER_OPTION_SHAPES.replicate, options),
				context,
				image,
			);
		case "openai":
			return createOpenAi(parseOptions(PROVIDER_OPTION_SHAPES.openai, options), context);
		case "fal":
			return createFal(parseOptions(PROVIDER_OPTION_SHAPES.fal, options), context, image);
	}
}

function createLocal(options: OptionsOf<"local">, { env }: ProviderContext): ImageProvider {
	return createLocalProvider({ delayMs: options.delayMs ?? env.LOCAL_ENGINE_DELAY_MS });
}

function createHttp(options: OptionsOf<"http">, { env }: ProviderContext): ImageProvider {
	const url = options.url ?? env.IMAGE_API_URL;
	if (!url)
		throw new ProviderOptionError("url", "is required (or IMAGE_API_URL in the environment)");
	return createHttpProvider({
		apiUrl: url,
		...(env.IMAGE_API_KEY ? { apiKey: env.IMAGE_API_KEY } : {}),
	});
}

function createComfyUi(
	options: OptionsOf<"comfyui">,
	{ env, baseDir }: ProviderContext,
): ImageProvider {
	const url = options.url ?? env.COMFYUI_URL;
	if (!url) throw new ProviderOptionError("url", "is required (or COMFYUI_URL in the environment)");
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
	return createComfyUiProvider({
		url,
		workflow,
		bindings,
		...(imageWorkflow ? { imageWorkflow } : {}),
		...(upscaleWorkflow ? { upscaleWorkflow } : {}),
		...((options.checkpoint ?? env.COMFYUI_CHECKPOINT)
			? { checkpoint: options.checkpoint ?? env.COMFYUI_CHECKPOINT }
			: {}),
		sizes: options.sizes ?? env.COMFYUI_SIZES,
		...(env.COMFYUI_AUTH_HEADER ? { authHeader: splitHeader(env.COMFYUI_AUTH_HEADER) } : {}),
		maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
		logger: createLogger(env.LOG_LEVEL),
	});
}

function createReplicate(
	options: OptionsOf<"replicate">,
	{ env }: ProviderContext,
	image: EntryImageFields,
): ImageProvider {
	const imageInputs = readHostedImageInputs(options, image);
	return createReplicateProvider({
		...(imageInputs ? { imageInputs } : {}),
		apiToken: requireValue(env.REPLICATE_API_TOKEN, "provider", "REPLICATE_API_TOKEN"),
		model: options.model ?? env.REPLICATE_MODEL,
		baseUrl: env.REPLICATE_BASE_URL,
		imagesPerPrediction: options.imagesPerPrediction ?? env.REPLICATE_IMAGES_PER_PREDICTION,
		...((options.input ?? env.REPLICATE_INPUT_JSON)
			? { extraInput: options.input ?? env.REPLICATE_INPUT_JSON }
			: {}),
		...readModelInputs(options, env.REPLICATE_SEED_INPUT, env.REPLICATE_NEGATIVE_PROMPT_INPUT),
		// Replicate stops a prediction nobody can use any more: past our own timeout.
		cancelAfterMs: env.GENERATION_TIMEOUT_MS,
	});
}

function createOpenAi(options: OptionsOf<"openai">, { env }: ProviderContext): ImageProvider {
	return createOpenAiProvider({
		apiKey: requireValue(env.OPENAI_API_KEY, "provider", "OPENAI_API_KEY"),
		baseUrl: env.OPENAI_BASE_URL,
		model: options.model ?? env.OPENAI_IMAGE_MODEL,
		quality: options.quality ?? env.OPENAI_IMAGE_QUALITY,
		sizes: options.sizes ?? env.OPENAI_IMAGE_SIZES,
		// The one blocking call may take as long as the generation is allowed to.
		requestTimeoutMs: env.GENERATION_TIMEOUT_MS,
		maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
	});
}

function createFal(
	options: OptionsOf<"fal">,
	{ env }: ProviderContext,
	image: EntryImageFields,
): ImageProvider {
	const imageInputs = readHostedImageInputs(options, image);
	return createFalProvider({
		...(imageInputs ? { imageInputs } : {}),
		apiKey: requireValue(env.FAL_KEY, "provider", "FAL_KEY"),
		model: options.model ?? env.FAL_MODEL,
		queueUrl: env.FAL_QUEUE_URL,
		ratioInput: options.ratioInput ?? env.FAL_RATIO_INPUT,
		imagesPerRequest: options.imagesPerRequest ?? env.FAL_IMAGES_PER_REQUEST,
		...((options.input ?? env.FAL_INPUT_JSON)
			? { extraInput: options.input ?? env.FAL_INPUT_JSON }
			: {}),
		...readModelInputs(options, env.FAL_SEED_INPUT, env.FAL_NEGATIVE_PROMPT_INPUT),
	});
}

/** A hosted model's seed and negative prompt inputs: the entry's, else the environment's. */
function readModelInputs(
	options: { seedInput?: string; negativePromptInput?: string },
	envSeedInput: string,
	envNegativePromptInput: string | undefined,
): { seedInput: string | null; negativePromptInput?: string } {
	const seedInput = options.seedInput ?? envSeedInput;
	const negativePromptInput = options.negativePromptInput ?? envNegativePromptInput;
	return {
		seedInput: seedInput === NO_SEED_INPUT ? null : seedInput,
		...(negativePromptInput ? { negativePromptInput } : {}),
	};
}

/**
 * A hosted model's image inputs from its entry: `imageInput` names the input the image goes in
 * (with `strengthInput` for the strength), and an upscaler adds `scaleInput` and `upscale`.
 * Every field that cannot work without another is named.
 */
function readHostedImageInputs(
	options: { strengthInput?: string; scaleInput?: string },
	image: EntryImageFields,
): HostedImageInputs | undefined {
	const problems: { field: string; message: string }[] = [];
	const name = typeof image.imageInput === "string" ? image.imageInput : undefined;
	const factors = image.upscale ?? [];
	if (image.imageInput === true) {
		problems.push({
			field: "imageInput",
			message: 'must name the model\'s image input, such as "image" or "image_url"',
		});
	}
	if (options.scaleInput !== undefined) {
		if (name === undefined && image.imageInput !== true) {
			problems.push({
				field: "imageInput",
				message: 'an upscaler (scaleInput) must name its image input, such as "image"',
			});
		}
		if (factors.length === 0) {
			problems.push({
				field: "upscale",
				message: "an upscaler (scaleInput) must list the factors it offers, such as [2, 4]",
			});
		}
		if (options.strengthInput !== undefined) {
			problems.push({
				field: "strengthInput",
				message: "an upscaler (scaleInput) takes no reference strength",
			});
		}
	} else if (factors.length > 0) {
		problems.push({
			field: "scaleInput",
			message:
				'is required to upscale (upscale lists factors): the model\'s factor input, such as "scale"',
		});
	}
	if (options.strengthInput !== undefined && name === undefined && image.imageInput !== true) {
		problems.push({
			field: "strengthInput",
			message: "needs imageInput, the name of the model's image input",
		});
	}
	if (problems.length > 0) throw new ProviderOptionError(problems);
	if (name === undefined) return undefined;
	if (options.scaleInput !== undefined) {
		return { image: name, upscale: { scale: options.scaleInput, factors } };
	}
	return {
		image: name,
		...(options.strengthInput !== undefined ? { strength: options.strengthInput } : {}),
	};
}

function resolvePath(baseDir: string, file: string): string {
	return file.startsWith("/") ? file : `${baseDir.replace(/\/+$/, "")}/${file}`;
}

function readWorkflowFile(path: string, field: string): ComfyWorkflow {
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

type ComfyUiInputs = NonNullable<OptionsOf<"comfyui">["inputs"]>;

/**
 * Where each value goes: the entry's `inputs`, else the environment's. A negative prompt goes to
 * the shipped workflow's negative text by default; your own workflow takes none until one is named.
 */
function readBindings(inputs: ComfyUiInputs, env: Env, hasOwnWorkflow: boolean): ComfyUiBindings {
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

type ImageWorkflowOptions = NonNullable<OptionsOf<"comfyui">["imageWorkflow"]>;
type UpscaleWorkflowOptions = NonNullable<OptionsOf<"comfyui">["upscaleWorkflow"]>;

/**
 * The image-to-image workflow an entry names (its own file, or the shipped one), else the shipped
 * one beside the shipped text workflow. Inputs left out are the shipped workflow's; with your own
 * file the optional ones (negative prompt, size, batch) are none until named.
 */
function readImageWorkflow(
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
function readUpscaleWorkflow(
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

function splitHeader(header: string): { name: string; value: string } {
	const separator = header.indexOf(":");
	return { name: header.slice(0, separator).trim(), value: header.slice(separator + 1).trim() };
}
