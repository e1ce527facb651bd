import { z } from "zod";
import {
	COMFYUI_DEFAULT_INPUTS,
	COMFYUI_DEFAULT_UPSCALE_FACTORS,
	COMFYUI_SHIPPED_IMAGE_INPUTS,
	COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT,
	COMFYUI_SHIPPED_UPSCALE_INPUTS,
} from "./comfyui-config";
import defaultImageWorkflowJson from "./default-image-workflow.json";
import defaultUpscaleWorkflowJson from "./default-upscale-workflow.json";
import defaultWorkflowJson from "./default-workflow.json";

/** A workflow in ComfyUI's API format ("Save (API format)"): node id → class and inputs. */
export const ComfyWorkflowSchema = z.record(
	z.string(),
	z.looseObject({
		class_type: z.string().min(1),
		inputs: z.record(z.string(), z.unknown()),
	}),
);
export type ComfyWorkflow = z.infer<typeof ComfyWorkflowSchema>;

/** Where a value goes in the workflow: `<node id>.<input name>`, such as `6.text`. */
export type InputRef = { node: string; input: string };

/**
 * The inputs Atelier fills in every job; `batch` null means one job per image, `negativePrompt`
 * null a workflow that takes none (its own negative text, if any, is left as it is).
 */
export type ComfyUiBindings = {
	prompt: InputRef;
	width: InputRef;
	height: InputRef;
	batch: InputRef | null;
	seed: InputRef;
	negativePrompt: InputRef | null;
};

export type ComfyUiBindingKey = keyof ComfyUiBindings;

// Defined before the defaults below, which are read with it as the module loads.
const INPUT_REF_PATTERN = /^([^.\s]+)\.([^.\s]+)$/;

/** The shipped text-to-image workflow (ComfyUI's stock default graph) and its bindings. */
export const DEFAULT_WORKFLOW: ComfyWorkflow = ComfyWorkflowSchema.parse(defaultWorkflowJson);

export const DEFAULT_BINDINGS: ComfyUiBindings = {
	prompt: toDefaultRef(COMFYUI_DEFAULT_INPUTS.prompt),
	width: toDefaultRef(COMFYUI_DEFAULT_INPUTS.width),
	height: toDefaultRef(COMFYUI_DEFAULT_INPUTS.height),
	batch: toDefaultRef(COMFYUI_DEFAULT_INPUTS.batch),
	seed: toDefaultRef(COMFYUI_DEFAULT_INPUTS.seed),
	negativePrompt: toDefaultRef(COMFYUI_SHIPPED_NEGATIVE_PROMPT_INPUT),
};

/**
 * Where an image-to-image workflow takes each value: `image` is a LoadImage node's file name (the
 * reference is uploaded first), `denoise` the sampler's denoise (the reference strength). `width`
 * and `height` (an ImageScale node sizing the reference to the ratio's pixel size) and `batch`
 * (a RepeatLatentBatch's amount) may be null: the reference's own size, one prompt per image.
 */
export type ComfyUiImageBindings = {
	image: InputRef;
	denoise: InputRef;
	prompt: InputRef;
	negativePrompt: InputRef | null;
	seed: InputRef;
	width: InputRef | null;
	height: InputRef | null;
	batch: InputRef | null;
};

/** Where an upscale workflow takes the image (a LoadImage node's file name) and the factor. */
export type ComfyUiUpscaleBindings = { image: InputRef; factor: InputRef };

/** A workflow that makes images from a reference, and where its values go. */
export type ComfyUiImageWorkflow = { workflow: ComfyWorkflow; bindings: ComfyUiImageBindings };

/** A workflow that upscales an image, where its values go, and the factors it is offered at. */
export type ComfyUiUpscaleWorkflow = {
	workflow: ComfyWorkflow;
	bindings: ComfyUiUpscaleBindings;
	factors: readonly number[];
};

/** The environment variable behind each binding, for messages that say what to fix. */
export const BINDING_VARIABLES: Record<ComfyUiBindingKey, string> = {
	prompt: "COMFYUI_PROMPT_INPUT",
	width: "COMFYUI_WIDTH_INPUT",
	height: "COMFYUI_HEIGHT_INPUT",
	batch: "COMFYUI_BATCH_INPUT",
	seed: "COMFYUI_SEED_INPUT",
	negativePrompt: "COMFYUI_NEGATIVE_PROMPT_INPUT",
};

export const BINDING_KEYS = [
	"prompt",
	"negativePrompt",
	"width",
	"height",
	"batch",
	"seed",
] as const satisfies readonly ComfyUiBindingKey[];

/** The shipped image-to-image workflow, used with the shipped text workflow. */
export const DEFAULT_IMAGE_WORKFLOW: ComfyUiImageWorkflow = {
	workflow: ComfyWorkflowSchema.parse(defaultImageWorkflowJson),
	bindings: {
		image: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.image),
		denoise: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.denoise),
		prompt: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.prompt),
		negativePrompt: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.negativePrompt),
		seed: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.seed),
		width: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.width),
		height: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.height),
		batch: toDefaultRef(COMFYUI_SHIPPED_IMAGE_INPUTS.batch),
	},
};

/**
 * The shipped upscale workflow, used with the shipped text workflow: it resamples (Lanczos) and
 * adds no detail; a workflow with an upscale model (UpscaleModelLoader) does better.
 */
export const DEFAULT_UPSCALE_WORKFLOW: ComfyUiUpscaleWorkflow = {
	workflow: ComfyWorkflowSchema.parse(defaultUpscaleWorkflowJson),
	bindings: {
		image: toDefaultRef(COMFYUI_SHIPPED_UPSCALE_INPUTS.image),
		factor: toDefaultRef(COMFYUI_SHIPPED_UPSCALE_INPUTS.factor),
	},
	factors: COMFYUI_DEFAULT_UPSCALE_FACTORS,
};

export function toDefaultRef(text: string): InputRef {
	const ref = parseInputRef(text);
	if (!ref) throw new Error(`A default ComfyUI input is not <node id>.<input name>: ${text}`);
	return ref;
}

/** Reads `<node id>.<input name>`; undefined when the text is not of that form. */
export function parseInputRef(text: string): InputRef | undefined {
	const match = INPUT_REF_PATTERN.exec(text.trim());
	if (!match) return undefined;
	const [, node = "", input = ""] = match;
	return { node, input };
}

/**
 * Parses a workflow file's text. The UI's own format (with `nodes` and `links`) is refused with
 * the way to get the API format, the mistake people make first.
 */
export function parseWorkflowText(text: string, source: string): ComfyWorkflow {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		throw new Error(`${source} is not JSON: ${detail}`);
	}
	if (typeof json === "object" && json !== null && "nodes" in json && "links" in json) {
		throw new Error(
			`${source} is in ComfyUI's UI format; export it with "Save (API format)" (enable the dev mode options in ComfyUI's settings if the menu lacks it)`,
		);
	}
	const parsed = ComfyWorkflowSchema.safeParse(json);
	if (!parsed.success || Object.keys(parsed.data).length === 0) {
		throw new Error(
			`${source} is not an API-format workflow (an object of nodes, each with class_type and inputs)`,
		);
	}
	return parsed.data;
}

/** A binding that does not fit its workflow: which one, and what is wrong, after its `<node>.<input>`. */
export type BindingProblem = { key: ComfyUiBindingKey; message: string };

/**
 * Every binding that does not name an input the workflow holds as a value (not a link from
 * another node), each message starting with the binding's `<node id>.<input name>`.
 */
export function findBindingProblems(
	workflow: ComfyWorkflow,
	bindings: ComfyUiBindings,
): BindingProblem[] {
	return findInputProblems(workflow, bindings, BINDING_KEYS);
}

/** The class of node an image goes into: Atelier uploads the image and names the file there. */
export const IMAGE_INPUT_NODE_CLASS = "LoadImage";

/**
 * Every input of `keys` that does not name an input the workflow holds as a value, whichever
 * workflow (text, image-to-image, upscale) the bindings are of; and every one that `nodeClasses`
 * says must be on a node of a class (the image on a LoadImage node) and is on another.
 */
export function findInputProblems<Key extends string>(
	workflow: ComfyWorkflow,
	bindings: Record<Key, InputRef | null>,
	keys: readonly Key[],
	nodeClasses: Partial<Record<Key, string>> = {},
): { key: Key; message: string }[] {
	const problems: { key: Key; message: string }[] = [];
	for (const key of keys) {
		const ref = bindings[key];
		if (ref === null) continue;
		const named = `${ref.node}.${ref.input}`;
		const node = workflow[ref.node];
		const nodeClass = nodeClasses[key];
		if (!node) {
			problems.push({ key, message: `${named}: the workflow has no node "${ref.node}"` });
		} else if (nodeClass !== undefined && node.class_type !== nodeClass) {
			problems.push({
				key,
				message: `${named}: node "${ref.node}" (${node.class_type}) is not a ${nodeClass} node; the image is uploaded to ComfyUI and named in a ${nodeClass} node's input`,
			});
		} else if (!(ref.input in node.inputs)) {
			problems.push({
				key,
				message: `${named}: node "${ref.node}" (${node.class_type}) has no input "${ref.input}"; it has ${Object.keys(node.inputs).join(", ")}`,
			});
		} else if (Array.isArray(node.inputs[ref.input])) {
			problems.push({
				key,
				message: `${named}: that input is linked to another node; name the node that holds the value`,
			});
		}
	}
	return problems;
}

/**
 * Throws, at boot, one error listing every binding that does not fit the workflow, each named as
 * `names` says (the environment variables by default).
 */
export function assertBindings(
	workflow: ComfyWorkflow,
	bindings: ComfyUiBindings,
	names: Record<ComfyUiBindingKey, string> = BINDING_VARIABLES,
): void {
	const problems = findBindingProblems(workflow, bindings).map(
		(problem) => `${names[problem.key]}: ${problem.message}`,
	);
	if (problems.length > 0) {
		throw new Error(
			`The ComfyUI workflow does not fit its bindings:\n  - ${problems.join("\n  - ")}`,
		);
	}
}

type WorkflowValues = {
	prompt: string;
	/** Written only when set: otherwise the workflow's own negative text stays. */
	negativePrompt: string | null;
	width: number;
	height: number;
	batchSize: number;
	seed: number;
	/** Saved images' name prefix, unique per job so outputs never mix. */
	filenamePrefix: string;
	/** A checkpoint file for every CheckpointLoaderSimple node, when configured. */
	checkpoint: string | undefined;
};

/** A copy of the workflow with this job's values written into its bound inputs. */
export function fillWorkflow(
	workflow: ComfyWorkflow,
	bindings: ComfyUiBindings,
	values: WorkflowValues,
): ComfyWorkflow {
	const graph = structuredClone(workflow);
	const write = (ref: InputRef | null, value: unknown) => {
		const node = ref ? graph[ref.node] : undefined;
		if (ref && node) node.inputs[ref.input] = value;
	};
	write(bindings.prompt, values.prompt);
	if (values.negativePrompt !== null) write(bindings.negativePrompt, values.negativePrompt);
	write(bindings.width, values.width);
	write(bindings.height, values.height);
	write(bindings.batch, values.batchSize);
	write(bindings.seed, values.seed);
	for (const node of Object.values(graph)) {
		if (node.class_type === "SaveImage") node.inputs.filename_prefix = values.filenamePrefix;
		if (node.class_type === "CheckpointLoaderSimple" && values.checkpoint !== undefined) {
			node.inputs.ckpt_name = values.checkpoint;
		}
	}
	return graph;
}

export const IMAGE_BINDING_KEYS = [
	"image",
	"denoise",
	"prompt",
	"negativePrompt",
	"seed",
	"width",
	"height",
	"batch",
] as const satisfies readonly (keyof ComfyUiImageBindings)[];

export const UPSCALE_BINDING_KEYS = [
	"image",
	"factor",
] as const satisfies readonly (keyof ComfyUiUpscaleBindings)[];

/** The image of an image-to-image or upscale workflow goes into a LoadImage node. */
export const IMAGE_BINDING_NODE_CLASSES = { image: IMAGE_INPUT_NODE_CLASS } as const;

/**
 * Throws, at boot, one error listing every binding of the image-to-image and upscale workflows
 * that does not fit its workflow (an image bound anywhere but a LoadImage node among them), each
 * named as `<workflow>.inputs.<key>`.
 */
export function assertImageWorkflows(
	image: ComfyUiImageWorkflow | undefined,
	upscale: ComfyUiUpscaleWorkflow | undefined,
): void {
	const problems = [
		...(image
			? findInputProblems(
					image.workflow,
					image.bindings,
					IMAGE_BINDING_KEYS,
					IMAGE_BINDING_NODE_CLASSES,
				).map((problem) => `imageWorkflow.inputs.${problem.key}: ${problem.message}`)
			: []),
		...(upscale
			? findInputProblems(
					upscale.workflow,
					upscale.bindings,
					UPSCALE_BINDING_KEYS,
					IMAGE_BINDING_NODE_CLASSES,
				).map((problem) => `upscaleWorkflow.inputs.${problem.key}: ${problem.message}`)
			: []),
	];
	if (problems.length > 0) {
		throw new Error(
			`A ComfyUI image workflow does not fit its bindings:\n  - ${problems.join("\n  - ")}`,
		);
	}
}

/** A copy of a workflow with values written into the inputs named (null refs are skipped). */
export function writeInputs(
	workflow: ComfyWorkflow,
	values: readonly [InputRef | null, unknown][],
	job: { filenamePrefix: string; checkpoint: string | undefined },
): ComfyWorkflow {
	const graph = structuredClone(workflow);
	for (const [ref, value] of values) {
		const node = ref ? graph[ref.node] : undefined;
		if (ref && node) node.inputs[ref.input] = value;
	}
	for (const node of Object.values(graph)) {
		if (node.class_type === "SaveImage") node.inputs.filename_prefix = job.filenamePrefix;
		if (node.class_type === "CheckpointLoaderSimple" && job.checkpoint !== undefined) {
			node.inputs.ckpt_name = job.checkpoint;
		}
	}
	return graph;
}

/**
 * The workflow's image outputs: nodes that take `images` from another node and feed none
 * (SaveImage, PreviewImage and most custom savers).
 */
export function findImageOutputs(workflow: ComfyWorkflow): string[] {
	const isLink = (value: unknown): value is [string, number] =>
		Array.isArray(value) && typeof value[0] === "string";
	const fed = new Set(
		Object.values(workflow).flatMap((node) =>
			Object.values(node.inputs).flatMap((value) => (isLink(value) ? [value[0]] : [])),
		),
	);
	return Object.entries(workflow)
		.filter(([id, node]) => isLink(node.inputs.images) && !fed.has(id))
		.map(([id]) => id);
}
