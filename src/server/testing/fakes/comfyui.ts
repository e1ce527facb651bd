import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import sharp from "sharp";
import { type WebSocket, WebSocketServer } from "ws";
import { z } from "zod";
import {
	createFailurePlan,
	type FailureTiming,
	type FakeReply,
	type FakeRequest,
	jsonReply,
	readMultipart,
	renderFakeImage,
	renderFromImage,
	startFakeServer,
	textReply,
} from "./fake-server";

export const FAKE_COMFYUI_ENDPOINTS = [
	"prompt",
	"upload",
	"history",
	"queue",
	"view",
	"interrupt",
	"object_info",
] as const;
type FakeComfyUiEndpoint = (typeof FAKE_COMFYUI_ENDPOINTS)[number];

/** Each failure a request can be told to answer with instead of its normal reply. */
export const FAKE_COMFYUI_FAILURES = {
	"server-error": "500, as when ComfyUI crashes handling the request",
	"bad-gateway": "502, as a reverse proxy answers while the ComfyUI behind it is down",
	"rate-limited": "429 with Retry-After, as a rate-limiting reverse proxy answers",
	"not-found": "404 (for /view: the file was deleted)",
	"bad-json": "200 with an HTML page",
	malformed: "200 with JSON of the wrong shape",
	hang: "never answers",
	drop: "closes the connection",
} as const;
type FakeComfyUiFailure = keyof typeof FAKE_COMFYUI_FAILURES;

/** How a prompt ends once it has run. */
type FakeComfyUiOutcome = "success" | "error";

export type FakeComfyUiBehaviour = {
	/** A header every request needs (a reverse proxy's); null for ComfyUI's default of none. */
	authHeader: { name: string; value: string } | null;
	/** How long a prompt waits in `queue_pending`, then runs in `queue_running`. */
	pendingMs: number;
	runningMs: number;
	outcome: FakeComfyUiOutcome;
	/** The checkpoint files this server has; a CheckpointLoaderSimple naming another is refused. */
	checkpoints: string[];
	retryAfterSeconds: number;
	/** Latency of every answer (not of /view). */
	requestDelayMs: number;
	/**
	 * Sampler steps a running prompt reports on the WebSocket (`progress`, each with a preview
	 * frame), spread over `runningMs`; 0 sends none (a test then sends them with `sendProgress`).
	 */
	steps: number;
	/** Whether WebSocket connections are accepted (false: refused, as by a proxy without them). */
	isWebSocketOpen: boolean;
};

export type FakeComfyUi = {
	origin: string;
	requests(): readonly FakeRequest[];
	/** Every workflow queued, in order, as ComfyUI received it. */
	submittedWorkflows(): readonly Record<
		string,
		{ class_type: string; inputs: Record<string, unknown> }
	>[];
	setBehaviour(changes: Partial<FakeComfyUiBehaviour>): void;
	/** WebSocket clients connected now. */
	socketCount(): number;
	/** The ids of the prompts queued, in order. */
	promptIds(): string[];
	/** The files uploaded to the input folder (`POST /upload/image`), as `subfolder/name`. */
	inputFiles(): string[];
	/** The mask of every inpaint prompt queued, in order. */
	inpaintMasks(): readonly FakeComfyUiMask[];
	/**
	 * Sends a prompt's sampler step to the WebSocket client that queued it, as ComfyUI does:
	 * `progress` {value, max, prompt_id, node}, then a binary preview frame (PNG) when asked.
	 */
	sendProgress(promptId: string, value: number, max: number, withPreview?: boolean): Promise<void>;
	fail(endpoint: FakeComfyUiEndpoint, kind: FakeComfyUiFailure, timing?: FailureTiming): void;
	clearFailures(): void;
	/** Forgets the queue and the history, as a ComfyUI restart does. */
	restart(): void;
	/**
	 * Stops listening while keeping the queue, the history and the clock (prompts go on running
	 * unseen), as when ComfyUI's machine or the network to it is briefly down.
	 */
	goOffline(): Promise<void>;
	/** Listens again on the same port after `goOffline`. */
	comeBack(): Promise<void>;
	stop(): Promise<void>;
};

export type FakeComfyUiOptions = { port?: number; behaviour?: Partial<FakeComfyUiBehaviour> };

const DEFAULT_BEHAVIOUR: FakeComfyUiBehaviour = {
	authHeader: null,
	pendingMs: 1_000,
	runningMs: 2_000,
	outcome: "success",
	checkpoints: ["v1-5-pruned-emaonly.safetensors", "sd_xl_base_1.0.safetensors"],
	retryAfterSeconds: 2,
	requestDelayMs: 0,
	steps: 0,
	isWebSocketOpen: true,
};

const WorkflowSchema = z.record(
	z.string(),
	z.object({ class_type: z.string(), inputs: z.record(z.string(), z.unknown()) }),
);
type Workflow = z.infer<typeof WorkflowSchema>;

const PromptBodySchema = z.object({
	prompt: z.unknown(),
	client_id: z.string().optional(),
	prompt_id: z.string().optional(),
	extra_data: z.unknown().optional(),
	front: z.boolean().optional(),
	number: z.number().optional(),
});

/** One input's definition as `/object_info` lists it: its type, then its options. */
type InputDefinition = [type: string | string[], options?: Record<string, unknown>];

type NodeDefinition = {
	required: Record<string, InputDefinition>;
	optional?: Record<string, InputDefinition>;
	output: string[];
	outputNode: boolean;
};

// Python's 0xffffffffffffffff, the seed limit of ComfyUI's samplers: a JSON number JavaScript
// reads as the nearest double, 2^64.
const UINT64_MAX = 2 ** 64;
const MAX_RESOLUTION = 16_384;
const seedInput = (max: number): InputDefinition => [
	"INT",
	{ default: 0, min: 0, max, control_after_generate: true },
];
const sizeInput = (fallback: number): InputDefinition => [
	"INT",
	{ default: fallback, min: 16, max: MAX_RESOLUTION, step: 8 },
];
const batchInput: InputDefinition = ["INT", { default: 1, min: 1, max: 4096 }];

/**
 * The nodes this fake knows, with the inputs and limits ComfyUI 0.3.64 gives them in
 * `/object_info`. The API nodes cap their seed lower than the samplers, which is what a workflow
 * built on one runs into.
 */
const NODE_DEFINITIONS: Record<string, NodeDefinition> = {
	KSampler: {
		required: {
			model: ["MODEL"],
			seed: seedInput(UINT64_MAX),
			steps: ["INT", { default: 20, min: 1, max: 10_000 }],
			cfg: ["FLOAT", { default: 8, min: 0, max: 100 }],
			sampler_name: [["euler", "euler_ancestral", "dpmpp_2m"]],
			scheduler: [["normal", "karras", "simple"]],
			positive: ["CONDITIONING"],
			negative: ["CONDITIONING"],
			latent_image: ["LATENT"],
			denoise: ["FLOAT", { default: 1, min: 0, max: 1 }],
		},
		output: ["LATENT"],
		outputNode: false,
	},
	CheckpointLoaderSimple: {
		required: { ckpt_name: [[]] },
		output: ["MODEL", "CLIP", "VAE"],
		outputNode: false,
	},
	EmptyLatentImage: {
		required: { width: sizeInput(512), height: sizeInput(512), batch_size: batchInput },
		output: ["LATENT"],
		outputNode: false,
	},
	EmptySD3LatentImage: {
		required: { width: sizeInput(1024), height: sizeInput(1024), batch_size: batchInput },
		output: ["LATENT"],
		outputNode: false,
	},
	EmptyImage: {
		required: {
			width: ["INT", { default: 512, min: 1, max: MAX_RESOLUTION }],
			height: ["INT", { default: 512, min: 1, max: MAX_RESOLUTION }],
			batch_size: batchInput,
			color: ["INT", { default: 0, min: 0, max: 0xffffff }],
		},
		output: ["IMAGE"],
		outputNode: false,
	},
	CLIPTextEncode: {
		required: { text: ["STRING", { multiline: true }], clip: ["CLIP"] },
		output: ["CONDITIONING"],
		outputNode: false,
	},
	PrimitiveStringMultiline: {
		required: { value: ["STRING", { multiline: true }] },
		output: ["STRING"],
		outputNode: false,
	},
	ImageAddNoise: {
		required: {
			image: ["IMAGE"],
			seed: seedInput(UINT64_MAX),
			strength: ["FLOAT", { default: 0.5, min: 0, max: 1 }],
		},
		output: ["IMAGE"],
		outputNode: false,
	},
	IdeogramV1: {
		required: {
			prompt: ["STRING", { multiline: true }],
			turbo: ["BOOLEAN", { default: false }],
		},
		optional: {
			seed: seedInput(2_147_483_647),
			num_images: ["INT", { default: 1, min: 1, max: 8 }],
		},
		output: ["IMAGE"],
		outputNode: false,
	},
	StabilityStableImageUltraNode: {
		required: { prompt: ["STRING", { multiline: true }], seed: seedInput(4_294_967_294) },
		output: ["IMAGE"],
		outputNode: false,
	},
	VAEDecode: {
		required: { samples: ["LATENT"], vae: ["VAE"] },
		output: ["IMAGE"],
		outputNode: false,
	},
	SaveImage: {
		required: { images: ["IMAGE"], filename_prefix: ["STRING", { default: "ComfyUI" }] },
		output: [],
		outputNode: true,
	},
	PreviewImage: { required: { images: ["IMAGE"] }, output: [], outputNode: true },
	// The image nodes of image-to-image and upscale workflows. LoadImage lists the input files.
	LoadImage: { required: { image: [[]] }, output: ["IMAGE", "MASK"], outputNode: false },
	ImageScale: {
		required: {
			upscale_method: [["nearest-exact", "bilinear", "area", "bicubic", "lanczos"]],
			width: ["INT", { default: 512, min: 0, max: MAX_RESOLUTION }],
			height: ["INT", { default: 512, min: 0, max: MAX_RESOLUTION }],
			crop: [["disabled", "center"]],
			image: ["IMAGE"],
		},
		output: ["IMAGE"],
		outputNode: false,
	},
	ImageScaleBy: {
		required: {
			upscale_method: [["nearest-exact", "bilinear", "area", "bicubic", "lanczos"]],
			scale_by: ["FLOAT", { default: 1, min: 0.01, max: 8 }],
			image: ["IMAGE"],
		},
		output: ["IMAGE"],
		outputNode: false,
	},
	VAEEncode: {
		required: { pixels: ["IMAGE"], vae: ["VAE"] },
		output: ["LATENT"],
		outputNode: false,
	},
	RepeatLatentBatch: {
		required: { samples: ["LATENT"], amount: ["INT", { default: 1, min: 1, max: 64 }] },
		output: ["LATENT"],
		outputNode: false,
	},
	// Inpainting: the masked region of the pixels is encoded empty for the sampler to repaint.
	VAEEncodeForInpaint: {
		required: {
			pixels: ["IMAGE"],
			vae: ["VAE"],
			mask: ["MASK"],
			grow_mask_by: ["INT", { default: 6, min: 0, max: 64 }],
		},
		output: ["LATENT"],
		outputNode: false,
	},
	// A text output, as a workflow that also shows its prompt has.
	PreviewAny: { required: { source: ["*"] }, output: [], outputNode: true },
};

// The nodes whose width, height and batch_size the saved images take.
const SIZE_CLASSES = ["EmptyLatentImage", "EmptySD3LatentImage", "EmptyImage"];
const IMAGE_OUTPUT_CLASSES = ["SaveImage", "PreviewImage"];

type SavedImage = {
	filename: string;
	subfolder: string;
	type: "output" | "temp";
	width: number;
	height: number;
	/** The input file it was made from (a LoadImage node's), resized to its size. */
	source?: InputFile;
	/** Made by an inpaint workflow, which here repaints every pixel (as GPT image models do). */
	isRepainted?: boolean;
};

/**
 * The mask an inpaint prompt's VAEEncodeForInpaint got, as ComfyUI reads it from its LoadImage:
 * 1 minus the file's alpha, here 0 to 255 (255 = repaint), one byte a pixel.
 */
export type FakeComfyUiMask = { width: number; height: number; mask: Buffer };

/** A file in ComfyUI's input folder, as `POST /upload/image` stored it. */
type InputFile = { data: Uint8Array; width: number; height: number };

type QueuedPrompt = {
	id: string;
	number: number;
	workflow: Workflow;
	/** The output nodes that passed validation: ComfyUI runs only these. */
	outputs: string[];
	queuedAt: number;
	/** The WebSocket client that hears its events (`client_id`). */
	clientId: string | undefined;
	interruptedAt: number | undefined;
	/** Set the first time it is seen finished, so later knob changes cannot revive it. */
	finishedAt: number | undefined;
	images: SavedImage[];
};

type NodeError = { type: string; message: string; details: string; extra_info?: unknown };

/**
 * A local stand-in for a ComfyUI server (PROVIDERS.md section 4), answering as ComfyUI 0.3.64
 * does: `POST /prompt` validates each output's nodes (links, checkpoints, the limits
 * `/object_info` lists) and refuses with 400 only when no output is valid; otherwise it answers
 * 200 with the other outputs' `node_errors` and runs only the valid ones. Prompt numbers count
 * from 0 and any string is taken as a `prompt_id`. Prompts move from `queue_pending` to
 * `queue_running` to `/history/{id}` on the clock, every SaveImage node saves `batch_size` images
 * of the size node's size, served by `/view`; `/interrupt` and `POST /queue {delete}` cancel.
 * `POST /upload/image` (multipart: `image`, `subfolder`, `type`, `overwrite`) stores a file in the
 * input folder, which LoadImage then names (`subfolder/name`, refused when missing); a workflow
 * with a LoadImage saves that file resized (to an ImageScale's size, or times an ImageScaleBy's
 * factor), so a test can tell the uploaded image was used. An inpaint workflow (a
 * VAEEncodeForInpaint, its `mask` linked to LoadImage's MASK output, else refused) records the
 * mask it read from the file's alpha and repaints every pixel, kept ones too.
 * Every route also answers under `/api`.
 */
export async function startFakeComfyUi(options: FakeComfyUiOptions = {}): Promise<FakeComfyUi> {
	let behaviour: FakeComfyUiBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
	const failures = createFailurePlan<FakeComfyUiEndpoint, FakeComfyUiFailure>();
	let prompts = new Map<string, QueuedPrompt>();
	const files = new Map<string, SavedImage & { seed: string; index: number }>();
	let nextNumber = 0;
	const submitted: Workflow[] = [];
	const masks: FakeComfyUiMask[] = [];
	// ComfyUI's input folder, by `subfolder/name` (a name alone at its top).
	const inputFiles = new Map<string, InputFile>();

	// ComfyUI's WebSocket: each client by its clientId; events go to the client that queued a prompt.
	const sockets = new WebSocketServer({ noServer: true });
	const clients = new Map<string, Set<WebSocket>>();
	const timers = new Set<NodeJS.Timeout>();
	const previewFrame = sharp({
		create: { width: 64, height: 64, channels: 3, background: { r: 90, g: 60, b: 160 } },
	})
		.png()
		.toBuffer();

	function acceptSocket(request: IncomingMessage, socket: Duplex, head: Buffer): void {
		const url = new URL(request.url ?? "/", "http://fake");
		const path = url.pathname.replace(/^\/api(?=\/)/, "");
		if (path !== "/ws" || !behaviour.isWebSocketOpen) {
			socket.destroy();
			return;
		}
		const clientId = url.searchParams.get("clientId") ?? randomUUID();
		sockets.handleUpgrade(request, socket, head, (client) => {
			const set = clients.get(clientId) ?? new Set();
			clients.set(clientId, set);
			set.add(client);
			client.on("close", () => set.delete(client));
			// ComfyUI greets every client with the queue's status and its session id.
			client.send(
				JSON.stringify({
					type: "status",
					data: { status: { exec_info: { queue_remaining: countWaiting() } }, sid: clientId },
				}),
			);
		});
	}

	function sendTo(prompt: QueuedPrompt, message: string | Buffer): void {
		for (const client of clients.get(prompt.clientId ?? "") ?? []) client.send(message);
	}

	async function sendStep(prompt: QueuedPrompt, value: number, max: number, withPreview: boolean) {
		sendTo(
			prompt,
			JSON.stringify({
				type: "progress",
				data: { value, max, prompt_id: prompt.id, node: "3" },
			}),
		);
		if (!withPreview) return;
		// Binary frame: event type 1 (preview image), format 2 (PNG), then the image.
		const header = Buffer.alloc(8);
		header.writeUInt32BE(1, 0);
		header.writeUInt32BE(2, 4);
		sendTo(prompt, Buffer.concat([header, await previewFrame]));
	}

	/** While the prompt runs, its steps go out on the clock, as a sampler's would. */
	function scheduleSteps(prompt: QueuedPrompt): void {
		const steps = behaviour.steps;
		if (steps <= 0) return;
		const every = behaviour.runningMs / (steps + 1);
		for (let step = 1; step <= steps; step++) {
			const timer = setTimeout(
				() => {
					timers.delete(timer);
					if (phaseOf(prompt) === "running") void sendStep(prompt, step, steps, true);
				},
				behaviour.pendingMs + every * step,
			);
			timers.add(timer);
		}
	}

	const listen = (port: number | undefined) =>
		startFakeServer({
			...(port === undefined ? {} : { port }),
			upgrade: acceptSocket,
			readDelayMs: (request) => (request.path.endsWith("/view") ? 0 : behaviour.requestDelayMs),
			handle: (request) => handle(request),
		});
	let server = await listen(options.port);
	const port = Number(new URL(server.origin).port);
	// The requests of the servers stopped by goOffline, so none is forgotten.
	const earlierRequests: FakeRequest[] = [];

	async function handle(request: FakeRequest): Promise<FakeReply> {
		const path = request.path.replace(/^\/api(?=\/)/, "");
		const header = behaviour.authHeader;
		if (header && request.headers[header.name.toLowerCase()] !== header.value) {
			return textReply(401, "401: Unauthorized");
		}
		const route = matchRoute(request.method, path);
		if (!route) return textReply(404, "404: Not Found");
		const failure = failures.take(route.endpoint);
		if (failure) return answerFailure(failure);
		switch (route.endpoint) {
			case "prompt":
				return route.method === "GET"
					? jsonReply(200, { exec_info: { queue_remaining: countWaiting() } })
					: queuePrompt(request.body);
			case "history":
				return answerHistory(route.id);
			case "queue":
				return route.method === "GET" ? answerQueue() : editQueue(request.body);
			case "interrupt":
				return interrupt(request.body);
			case "view":
				return serveView(request.query);
			case "object_info":
				return answerObjectInfo(route.nodeClass);
			case "upload":
				return uploadImage(request);
		}
	}

	/**
	 * ComfyUI's `POST /upload/image`: multipart with the `image` file, `subfolder`, `type` (input
	 * by default) and `overwrite`; without overwrite an existing name gets " (1)" and so on. Answers
	 * where the file went, the name a LoadImage node then takes.
	 */
	async function uploadImage(request: FakeRequest): Promise<FakeReply> {
		const form = await readMultipart(request);
		const file = form?.get("image");
		if (!form || !(file instanceof File)) return textReply(400, "400: Bad Request");
		const data = new Uint8Array(await file.arrayBuffer());
		const metadata = await sharp(data)
			.metadata()
			.catch(() => undefined);
		// ComfyUI stores whatever it is sent; LoadImage fails on a file that is not an image.
		if (!metadata?.width || !metadata.height) return textReply(400, "400: Bad Request");
		const subfolder = String(form.get("subfolder") ?? "");
		const overwrite = ["true", "1"].includes(String(form.get("overwrite") ?? "").toLowerCase());
		const dot = file.name.lastIndexOf(".");
		const [stem, extension] =
			dot > 0 ? [file.name.slice(0, dot), file.name.slice(dot)] : [file.name, ""];
		let name = file.name;
		for (let copy = 1; !overwrite && inputFiles.has(joinPath(subfolder, name)); copy++) {
			name = `${stem} (${copy})${extension}`;
		}
		inputFiles.set(joinPath(subfolder, name), {
			data,
			width: metadata.width,
			height: metadata.height,
		});
		const type = String(form.get("type") ?? "input");
		return jsonReply(200, { name, subfolder, type });
	}

	function answerObjectInfo(nodeClass: string | undefined): FakeReply {
		const names = nodeClass === undefined ? Object.keys(NODE_DEFINITIONS) : [nodeClass];
		const known = names.filter((name) => name in NODE_DEFINITIONS);
		// ComfyUI answers an unknown class with an empty object, not a 404.
		return jsonReply(
			200,
			Object.fromEntries(
				known.map((name) => [
					name,
					describeNode(name, behaviour.checkpoints, [...inputFiles.keys()]),
				]),
			),
		);
	}

	/** The mask an inpaint workflow hands its VAEEncodeForInpaint: its LoadImage's inverted alpha. */
	async function readInpaintMask(workflow: Workflow): Promise<FakeComfyUiMask | undefined> {
		const encoder = Object.values(workflow).find(
			(node) => node.class_type === "VAEEncodeForInpaint",
		);
		const link = encoder?.inputs.mask;
		const loader = isLink(link) ? workflow[link[0]] : undefined;
		const file = loader ? inputFiles.get(String(loader.inputs.image)) : undefined;
		if (!file) return undefined;
		// LoadImage: an image without alpha gives an empty mask (nothing to repaint).
		const { data, info } = await sharp(file.data)
			.ensureAlpha(1)
			.extractChannel(3)
			.raw()
			.toBuffer({ resolveWithObject: true });
		const mask = Buffer.alloc(data.length);
		for (let index = 0; index < data.length; index++) mask[index] = 255 - (data[index] ?? 0);
		return { width: info.width, height: info.height, mask };
	}

	async function queuePrompt(body: unknown): Promise<FakeReply> {
		const parsed = PromptBodySchema.safeParse(body);
		const workflow = WorkflowSchema.safeParse(parsed.success ? parsed.data.prompt : undefined);
		if (!parsed.success || parsed.data.prompt === undefined || !workflow.success) {
			return promptError(400, "no_prompt", "No prompt provided", {});
		}
		const outputs = Object.keys(workflow.data).filter((id) => {
			const definition = NODE_DEFINITIONS[workflow.data[id]?.class_type ?? ""];
			return definition?.outputNode === true;
		});
		if (outputs.length === 0) {
			return promptError(400, "prompt_no_outputs", "Prompt has no outputs", {});
		}
		const nodeErrors = validateNodes(workflow.data, behaviour.checkpoints, inputFiles);
		// Each output fails with any node it depends on; the others still run.
		const failedBy = new Map<string, string[]>();
		for (const outputId of outputs) {
			for (const nodeId of collectAncestors(workflow.data, outputId)) {
				if (!nodeErrors[nodeId]) continue;
				failedBy.set(nodeId, [...(failedBy.get(nodeId) ?? []), outputId]);
			}
		}
		const failedOutputs = new Set([...failedBy.values()].flat());
		const reportedErrors = Object.fromEntries(
			[...failedBy].map(([nodeId, dependentOutputs]) => [
				nodeId,
				{
					errors: nodeErrors[nodeId],
					dependent_outputs: dependentOutputs,
					class_type: workflow.data[nodeId]?.class_type,
				},
			]),
		);
		const validOutputs = outputs.filter((id) => !failedOutputs.has(id));
		if (validOutputs.length === 0) {
			return jsonReply(400, {
				error: {
					type: "prompt_outputs_failed_validation",
					message: "Prompt outputs failed validation",
					details: "",
					extra_info: {},
				},
				node_errors: reportedErrors,
			});
		}
		submitted.push(workflow.data);
		const mask = await readInpaintMask(workflow.data);
		if (mask) masks.push(mask);
		const id = parsed.data.prompt_id ?? randomUUID();
		const prompt: QueuedPrompt = {
			id,
			number: nextNumber,
			workflow: workflow.data,
			outputs: validOutputs,
			queuedAt: Date.now(),
			clientId: parsed.data.client_id,
			interruptedAt: undefined,
			finishedAt: undefined,
			images: [],
		};
		nextNumber += 1;
		prompt.images = planImages(prompt);
		prompts.set(id, prompt);
		scheduleSteps(prompt);
		return jsonReply(200, { prompt_id: id, number: prompt.number, node_errors: reportedErrors });
	}

	/**
	 * The size, count and source of a workflow's images: a LoadImage's file, sized by an
	 * ImageScale (to its width and height) or an ImageScaleBy (times its factor), repeated by a
	 * RepeatLatentBatch; otherwise the size node's width, height and batch size.
	 */
	function planSize(workflow: Workflow): {
		width: number;
		height: number;
		batch: number;
		source?: InputFile;
		isRepainted?: boolean;
	} {
		const nodes = Object.values(workflow);
		const find = (classType: string) => nodes.find((node) => node.class_type === classType);
		const loaded = find("LoadImage");
		const source = loaded ? inputFiles.get(String(loaded.inputs.image)) : undefined;
		if (source) {
			const scale = find("ImageScale");
			const scaleBy = find("ImageScaleBy");
			const factor = Number(scaleBy?.inputs.scale_by ?? 1);
			return {
				width: scale ? Number(scale.inputs.width) : Math.round(source.width * factor),
				height: scale ? Number(scale.inputs.height) : Math.round(source.height * factor),
				batch: Number(find("RepeatLatentBatch")?.inputs.amount ?? 1),
				source,
				isRepainted: find("VAEEncodeForInpaint") !== undefined,
			};
		}
		const latent = nodes.find((node) => SIZE_CLASSES.includes(node.class_type));
		return {
			width: Number(latent?.inputs.width ?? 512),
			height: Number(latent?.inputs.height ?? 512),
			batch: Number(latent?.inputs.batch_size ?? 1),
		};
	}

	function planImages(prompt: QueuedPrompt): SavedImage[] {
		const { width, height, batch, source, isRepainted } = planSize(prompt.workflow);
		const images: SavedImage[] = [];
		for (const nodeId of prompt.outputs) {
			const node = prompt.workflow[nodeId];
			if (!node || !IMAGE_OUTPUT_CLASSES.includes(node.class_type)) continue;
			const isSave = node.class_type === "SaveImage";
			const prefix = isSave
				? String(node.inputs.filename_prefix ?? "ComfyUI")
				: `ComfyUI_temp_${prompt.number}`;
			const slash = prefix.lastIndexOf("/");
			const subfolder = slash >= 0 ? prefix.slice(0, slash) : "";
			const name = slash >= 0 ? prefix.slice(slash + 1) : prefix;
			for (let index = 0; index < batch; index++) {
				const image: SavedImage = {
					filename: `${name}_${String(index + 1).padStart(5, "0")}_.png`,
					subfolder,
					type: isSave ? "output" : "temp",
					width,
					height,
					...(source ? { source } : {}),
					...(isRepainted ? { isRepainted } : {}),
				};
				images.push(image);
			}
		}
		return images;
	}

	function phaseOf(prompt: QueuedPrompt): "pending" | "running" | "done" {
		if (prompt.interruptedAt !== undefined || prompt.finishedAt !== undefined) return "done";
		const elapsed = Date.now() - prompt.queuedAt;
		if (elapsed < behaviour.pendingMs) return "pending";
		if (elapsed < behaviour.pendingMs + behaviour.runningMs) return "running";
		prompt.finishedAt = Date.now();
		return "done";
	}

	function countWaiting(): number {
		return [...prompts.values()].filter((prompt) => phaseOf(prompt) !== "done").length;
	}

	function toQueueItem(prompt: QueuedPrompt): unknown[] {
		return [prompt.number, prompt.id, prompt.workflow, { client_id: "fake" }, []];
	}

	function answerQueue(): FakeReply {
		const all = [...prompts.values()];
		return jsonReply(200, {
			queue_running: all.filter((prompt) => phaseOf(prompt) === "running").map(toQueueItem),
			queue_pending: all.filter((prompt) => phaseOf(prompt) === "pending").map(toQueueItem),
		});
	}

	function answerHistory(id: string): FakeReply {
		const prompt = prompts.get(id);
		if (!prompt || phaseOf(prompt) !== "done") return jsonReply(200, {});
		const start = ["execution_start", { prompt_id: id, timestamp: prompt.queuedAt }];
		const base = {
			prompt: [prompt.number, id, prompt.workflow, { client_id: "fake" }, []],
			meta: {},
		};
		if (prompt.interruptedAt !== undefined) {
			return jsonReply(200, {
				[id]: {
					...base,
					outputs: {},
					status: {
						status_str: "error",
						completed: false,
						messages: [
							start,
							[
								"execution_interrupted",
								{ prompt_id: id, node_id: "3", node_type: "KSampler", executed: [] },
							],
						],
					},
				},
			});
		}
		if (behaviour.outcome === "error") {
			return jsonReply(200, {
				[id]: {
					...base,
					outputs: {},
					status: {
						status_str: "error",
						completed: false,
						messages: [
							start,
							[
								"execution_error",
								{
									prompt_id: id,
									node_id: "3",
									node_type: "KSampler",
									exception_type: "torch.OutOfMemoryError",
									exception_message:
										"Allocation on device 0 would exceed allowed memory. (out of memory)",
									traceback: ["..."],
								},
							],
						],
					},
				},
			});
		}
		const outputs: Record<
			string,
			{ images: { filename: string; subfolder: string; type: string }[] } | { text: string[] }
		> = {};
		for (const nodeId of prompt.outputs) {
			const node = prompt.workflow[nodeId];
			if (!node) continue;
			if (!IMAGE_OUTPUT_CLASSES.includes(node.class_type)) {
				outputs[nodeId] = { text: [describeSource(prompt.workflow, node.inputs.source)] };
				continue;
			}
			const type = node.class_type === "SaveImage" ? "output" : "temp";
			outputs[nodeId] = {
				images: prompt.images
					.filter((image) => image.type === type)
					.map((image) => {
						files.set(fileKey(image), {
							...image,
							seed: prompt.id,
							index: prompt.images.indexOf(image),
						});
						return { filename: image.filename, subfolder: image.subfolder, type: image.type };
					}),
			};
		}
		return jsonReply(200, {
			[id]: {
				...base,
				outputs,
				status: {
					status_str: "success",
					completed: true,
					messages: [start, ["execution_success", { prompt_id: id, timestamp: Date.now() }]],
				},
			},
		});
	}

	function editQueue(body: unknown): FakeReply {
		const parsed = z
			.object({ delete: z.array(z.string()).optional(), clear: z.boolean().optional() })
			.safeParse(body);
		if (!parsed.success) return textReply(200, "");
		for (const [id, prompt] of prompts) {
			const isTarget = parsed.data.clear === true || parsed.data.delete?.includes(id) === true;
			if (isTarget && phaseOf(prompt) === "pending") prompts.delete(id);
		}
		return textReply(200, "");
	}

	function interrupt(body: unknown): FakeReply {
		const target = z.object({ prompt_id: z.string().optional() }).safeParse(body);
		const promptId = target.success ? target.data.prompt_id : undefined;
		for (const prompt of prompts.values()) {
			// Without an id every running prompt stops, as on older servers.
			if (phaseOf(prompt) === "running" && (promptId === undefined || promptId === prompt.id)) {
				prompt.interruptedAt = Date.now();
			}
		}
		return textReply(200, "");
	}

	async function serveView(query: URLSearchParams): Promise<FakeReply> {
		const key = fileKey({
			filename: query.get("filename") ?? "",
			subfolder: query.get("subfolder") ?? "",
			type: query.get("type") === "temp" ? "temp" : "output",
		});
		const file = files.get(key);
		if (!file) return textReply(404, "404: Not Found");
		if (file.source && file.isRepainted) {
			// Every pixel repainted, the masked ones and the others alike.
			const data = await sharp(file.source.data)
				.resize(file.width, file.height, { fit: "fill" })
				.removeAlpha()
				.negate()
				.png()
				.toBuffer();
			return { kind: "bytes", status: 200, data: new Uint8Array(data), contentType: "image/png" };
		}
		if (file.source) {
			const made = await renderFromImage({
				source: file.source.data,
				width: file.width,
				height: file.height,
				format: "png",
			});
			return { kind: "bytes", status: 200, data: made.data, contentType: made.contentType };
		}
		const image = await renderFakeImage({
			width: file.width,
			height: file.height,
			seed: file.seed,
			index: file.index,
			format: "png",
		});
		return { kind: "bytes", status: 200, data: image.data, contentType: image.contentType };
	}

	function answerFailure(kind: FakeComfyUiFailure): FakeReply {
		switch (kind) {
			case "server-error":
				return textReply(500, "500 Internal Server Error\n\nServer got itself in trouble");
			case "bad-gateway":
				return textReply(502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html");
			case "rate-limited":
				return textReply(429, "Too Many Requests", "text/plain", {
					"retry-after": String(behaviour.retryAfterSeconds),
				});
			case "not-found":
				return textReply(404, "404: Not Found");
			case "bad-json":
				return textReply(200, "<html>502 Bad Gateway</html>", "text/html");
			case "malformed":
				return jsonReply(200, { queue_running: "none", unexpected: [1, 2, 3] });
			case "hang":
				return { kind: "hang" };
			case "drop":
				return { kind: "drop" };
		}
	}

	return {
		origin: server.origin,
		requests: () => [...earlierRequests, ...server.requests()],
		submittedWorkflows: () => [...submitted],
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		promptIds: () => [...prompts.keys()],
		inputFiles: () => [...inputFiles.keys()],
		inpaintMasks: () => [...masks],
		socketCount: () => [...clients.values()].reduce((sum, set) => sum + set.size, 0),
		async sendProgress(promptId, value, max, withPreview = false) {
			const prompt = prompts.get(promptId);
			if (prompt) await sendStep(prompt, value, max, withPreview);
		},
		fail: (endpoint, kind, timing) => failures.fail(endpoint, kind, timing),
		clearFailures: () => failures.clear(),
		restart() {
			for (const timer of timers) clearTimeout(timer);
			prompts = new Map();
		},
		async goOffline() {
			for (const client of sockets.clients) client.terminate();
			earlierRequests.push(...server.requests());
			await server.stop();
		},
		async comeBack() {
			server = await listen(port);
		},
		async stop() {
			for (const timer of timers) clearTimeout(timer);
			for (const client of sockets.clients) client.terminate();
			sockets.close();
			await server.stop();
		},
	};
}

type Route =
	| { endpoint: "prompt" | "queue"; method: "GET" | "POST" }
	| { endpoint: "upload" }
	| { endpoint: "history"; id: string }
	| { endpoint: "object_info"; nodeClass: string | undefined }
	| { endpoint: "interrupt" | "view" };

function matchRoute(method: string, path: string): Route | undefined {
	if ((method === "GET" || method === "POST") && (path === "/prompt" || path === "/queue")) {
		return { endpoint: path === "/prompt" ? "prompt" : "queue", method };
	}
	const history = /^\/history\/([^/]+)$/.exec(path);
	if (method === "GET" && history)
		return { endpoint: "history", id: decodeURIComponent(history[1] ?? "") };
	const objectInfo = /^\/object_info(?:\/([^/]+))?$/.exec(path);
	if (method === "GET" && objectInfo) {
		const name = objectInfo[1];
		return { endpoint: "object_info", nodeClass: name ? decodeURIComponent(name) : undefined };
	}
	if (method === "POST" && path === "/interrupt") return { endpoint: "interrupt" };
	if (method === "POST" && path === "/upload/image") return { endpoint: "upload" };
	if (method === "GET" && path === "/view") return { endpoint: "view" };
	return undefined;
}

/** A node as `GET /object_info/{class}` describes it. */
function describeNode(
	name: string,
	checkpoints: readonly string[],
	inputFiles: readonly string[],
): Record<string, unknown> {
	const definition = NODE_DEFINITIONS[name];
	if (!definition) return {};
	const required =
		name === "CheckpointLoaderSimple"
			? { ckpt_name: [[...checkpoints]] }
			: name === "LoadImage"
				? { image: [[...inputFiles]] }
				: definition.required;
	const input = { required, ...(definition.optional ? { optional: definition.optional } : {}) };
	return {
		input,
		input_order: Object.fromEntries(
			Object.entries(input).map(([group, inputs]) => [group, Object.keys(inputs)]),
		),
		output: definition.output,
		output_is_list: definition.output.map(() => false),
		output_name: definition.output,
		name,
		display_name: name,
		description: "",
		python_module: "nodes",
		category: "fake",
		output_node: definition.outputNode,
	};
}

/** The node and every node it takes an input from, directly or not. */
function collectAncestors(workflow: Workflow, outputId: string): Set<string> {
	const seen = new Set<string>();
	const visit = (id: string) => {
		if (seen.has(id)) return;
		seen.add(id);
		for (const value of Object.values(workflow[id]?.inputs ?? {})) {
			if (isLink(value) && value[0] in workflow) visit(value[0]);
		}
	};
	visit(outputId);
	return seen;
}

function isLink(value: unknown): value is [string, number] {
	return Array.isArray(value) && typeof value[0] === "string";
}

/** What a text output shows: the string it is linked to, as PreviewAny does. */
function describeSource(workflow: Workflow, source: unknown): string {
	if (!isLink(source)) return String(source ?? "");
	const value = workflow[source[0]]?.inputs.value;
	return typeof value === "string" ? value : "";
}

// The checks ComfyUI's validation makes that a workflow from Atelier can get wrong: links to
// missing nodes, a checkpoint that is not installed, values of the wrong type or outside the
// limits /object_info lists. Like ComfyUI, it checks only min and max, never the step.
function validateNodes(
	workflow: Workflow,
	checkpoints: readonly string[],
	inputFiles: ReadonlyMap<string, unknown>,
): Record<string, NodeError[]> {
	const errors: Record<string, NodeError[]> = {};
	const add = (id: string, error: NodeError) => {
		errors[id] = [...(errors[id] ?? []), error];
	};
	for (const [id, node] of Object.entries(workflow)) {
		const definition = NODE_DEFINITIONS[node.class_type];
		for (const [name, value] of Object.entries(node.inputs)) {
			if (isLink(value) && !(value[0] in workflow)) {
				add(id, {
					type: "required_input_missing",
					message: "Required input is missing",
					details: name,
				});
			}
		}
		if (!definition) continue;
		for (const [name, [type]] of Object.entries(definition.required)) {
			if (!(name in node.inputs)) {
				add(id, {
					type: "required_input_missing",
					message: "Required input is missing",
					details: name,
				});
			} else if (type === "STRING" && typeof node.inputs[name] !== "string") {
				add(id, {
					type: "invalid_input_type",
					message: "Failed to convert an input value to a STRING value",
					details: `${name}, ${String(node.inputs[name])}`,
				});
			}
		}
		const inputs = { ...definition.required, ...definition.optional };
		for (const [name, [type, limits]] of Object.entries(inputs)) {
			const value = node.inputs[name];
			if ((type !== "INT" && type !== "FLOAT") || value === undefined || isLink(value)) continue;
			const error = checkNumber(name, value, type, limits ?? {});
			if (error) add(id, error);
		}
		// A MASK input takes only an output that is a mask (LoadImage's second).
		for (const [name, [type]] of Object.entries(definition.required)) {
			const value = node.inputs[name];
			if (type !== "MASK" || !isLink(value)) continue;
			const from = NODE_DEFINITIONS[workflow[value[0]]?.class_type ?? ""];
			const received = from?.output[value[1]];
			if (from && received !== "MASK") {
				add(id, {
					type: "return_type_mismatch",
					message: "Return type mismatch between linked nodes",
					details: `${name}, received_type(${received ?? "nothing"}) mismatch input_type(MASK)`,
				});
			}
		}
		if (node.class_type === "LoadImage" && !inputFiles.has(String(node.inputs.image))) {
			add(id, {
				type: "custom_validation_failed",
				message: "Custom validation failed for node",
				details: `image - Invalid image file: ${String(node.inputs.image)}`,
			});
		}
		if (
			node.class_type === "CheckpointLoaderSimple" &&
			!checkpoints.includes(String(node.inputs.ckpt_name))
		) {
			add(id, {
				type: "value_not_in_list",
				message: "Value not in list",
				details: `ckpt_name: '${String(node.inputs.ckpt_name)}' not in ${JSON.stringify(checkpoints)}`,
			});
		}
	}
	return errors;
}

function checkNumber(
	name: string,
	value: unknown,
	type: "INT" | "FLOAT",
	limits: Record<string, unknown>,
): NodeError | undefined {
	const number = typeof value === "number" ? value : Number.NaN;
	if (Number.isNaN(number) || (type === "INT" && !Number.isInteger(number))) {
		return {
			type: "invalid_input_type",
			message: `Failed to convert an input value to a ${type} value`,
			details: `${name}, ${String(value)}`,
		};
	}
	const extra_info = { input_name: name, received_value: number };
	if (typeof limits.min === "number" && number < limits.min) {
		return {
			type: "value_smaller_than_min",
			message: `Value ${number} smaller than min of ${limits.min}`,
			details: name,
			extra_info,
		};
	}
	if (typeof limits.max === "number" && number > limits.max) {
		return {
			type: "value_bigger_than_max",
			message: `Value ${number} bigger than max of ${limits.max}`,
			details: name,
			extra_info,
		};
	}
	return undefined;
}

function joinPath(subfolder: string, name: string): string {
	return subfolder ? `${subfolder}/${name}` : name;
}

function fileKey(image: Pick<SavedImage, "filename" | "subfolder" | "type">): string {
	return `${image.type}/${image.subfolder}/${image.filename}`;
}

function promptError(
	status: number,
	type: string,
	message: string,
	nodeErrors: Record<string, unknown>,
): FakeReply {
	return jsonReply(status, {
		error: { type, message, details: "", extra_info: {} },
		node_errors: nodeErrors,
	});
}
