import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
	createFailurePlan,
	type FailureTiming,
	type FakeReply,
	type FakeRequest,
	jsonReply,
	renderFakeImage,
	startFakeServer,
	textReply,
} from "./fake-server";

export const FAKE_COMFYUI_ENDPOINTS = ["prompt", "history", "queue", "view", "interrupt"] as const;
export type FakeComfyUiEndpoint = (typeof FAKE_COMFYUI_ENDPOINTS)[number];

/** Each failure a request can be told to answer with instead of its normal reply. */
export const FAKE_COMFYUI_FAILURES = {
	"server-error": "500, as when ComfyUI crashes handling the request",
	"rate-limited": "429 with Retry-After, as a rate-limiting reverse proxy answers",
	"not-found": "404 (for /view: the file was deleted)",
	"bad-json": "200 with an HTML page",
	malformed: "200 with JSON of the wrong shape",
	hang: "never answers",
	drop: "closes the connection",
} as const;
export type FakeComfyUiFailure = keyof typeof FAKE_COMFYUI_FAILURES;

/** How a prompt ends once it has run. */
export type FakeComfyUiOutcome = "success" | "error";

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
	fail(endpoint: FakeComfyUiEndpoint, kind: FakeComfyUiFailure, timing?: FailureTiming): void;
	clearFailures(): void;
	/** Forgets the queue and the history, as a ComfyUI restart does. */
	restart(): void;
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

const LATENT_CLASSES = ["EmptyLatentImage", "EmptySD3LatentImage"];
const OUTPUT_CLASSES = ["SaveImage", "PreviewImage"];
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type SavedImage = {
	filename: string;
	subfolder: string;
	type: "output" | "temp";
	width: number;
	height: number;
};

type QueuedPrompt = {
	id: string;
	number: number;
	workflow: Workflow;
	queuedAt: number;
	interruptedAt: number | undefined;
	/** Set the first time it is seen finished, so later knob changes cannot revive it. */
	finishedAt: number | undefined;
	images: SavedImage[];
};

type NodeError = { type: string; message: string; details: string };

/**
 * A local stand-in for a ComfyUI server (PROVIDERS.md section 4): `POST /prompt` validates the
 * workflow like ComfyUI (outputs, links, checkpoints, latent sizes), prompts move from
 * `queue_pending` to `queue_running` to `/history/{id}` on the clock, every SaveImage node saves
 * `batch_size` images of the latent's size, served by `/view`; `/interrupt` and
 * `POST /queue {delete}` cancel. Every route also answers under `/api`.
 */
export async function startFakeComfyUi(options: FakeComfyUiOptions = {}): Promise<FakeComfyUi> {
	let behaviour: FakeComfyUiBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
	const failures = createFailurePlan<FakeComfyUiEndpoint, FakeComfyUiFailure>();
	let prompts = new Map<string, QueuedPrompt>();
	const files = new Map<string, SavedImage & { seed: string; index: number }>();
	let counter = 0;
	const submitted: Workflow[] = [];

	const server = await startFakeServer({
		...(options.port === undefined ? {} : { port: options.port }),
		readDelayMs: (request) => (request.path.endsWith("/view") ? 0 : behaviour.requestDelayMs),
		handle: (request) => handle(request),
	});

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
		}
	}

	function queuePrompt(body: unknown): FakeReply {
		const parsed = PromptBodySchema.safeParse(body);
		const workflow = WorkflowSchema.safeParse(parsed.success ? parsed.data.prompt : undefined);
		if (!parsed.success || parsed.data.prompt === undefined || !workflow.success) {
			return promptError(400, "no_prompt", "No prompt provided", {});
		}
		const requestedId = parsed.data.prompt_id;
		if (requestedId !== undefined && !UUID_PATTERN.test(requestedId)) {
			return promptError(400, "invalid_prompt_id", "prompt_id must be a lowercase UUID", {});
		}
		const outputs = Object.entries(workflow.data).filter(([, node]) =>
			OUTPUT_CLASSES.includes(node.class_type),
		);
		if (outputs.length === 0) {
			return promptError(400, "prompt_no_outputs", "Prompt has no outputs", {});
		}
		const nodeErrors = validateNodes(workflow.data, behaviour.checkpoints);
		if (Object.keys(nodeErrors).length > 0) {
			return jsonReply(400, {
				error: {
					type: "prompt_outputs_failed_validation",
					message: "Prompt outputs failed validation",
					details: "",
					extra_info: {},
				},
				node_errors: Object.fromEntries(
					Object.entries(nodeErrors).map(([id, errors]) => [
						id,
						{
							errors,
							dependent_outputs: outputs.map(([outputId]) => outputId),
							class_type: workflow.data[id]?.class_type,
						},
					]),
				),
			});
		}
		submitted.push(workflow.data);
		const id = requestedId ?? randomUUID();
		counter += 1;
		const prompt: QueuedPrompt = {
			id,
			number: counter,
			workflow: workflow.data,
			queuedAt: Date.now(),
			interruptedAt: undefined,
			finishedAt: undefined,
			images: [],
		};
		prompt.images = planImages(prompt);
		prompts.set(id, prompt);
		return jsonReply(200, { prompt_id: id, number: prompt.number, node_errors: {} });
	}

	function planImages(prompt: QueuedPrompt): SavedImage[] {
		const latent = Object.values(prompt.workflow).find((node) =>
			LATENT_CLASSES.includes(node.class_type),
		);
		const width = Number(latent?.inputs.width ?? 512);
		const height = Number(latent?.inputs.height ?? 512);
		const batch = Number(latent?.inputs.batch_size ?? 1);
		const images: SavedImage[] = [];
		for (const node of Object.values(prompt.workflow)) {
			if (!OUTPUT_CLASSES.includes(node.class_type)) continue;
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
			{ images: { filename: string; subfolder: string; type: string }[] }
		> = {};
		for (const [nodeId, node] of Object.entries(prompt.workflow)) {
			if (!OUTPUT_CLASSES.includes(node.class_type)) continue;
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
		requests: server.requests,
		submittedWorkflows: () => [...submitted],
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		fail: (endpoint, kind, timing) => failures.fail(endpoint, kind, timing),
		clearFailures: () => failures.clear(),
		restart() {
			prompts = new Map();
		},
		stop: server.stop,
	};
}

type Route =
	| { endpoint: "prompt" | "queue"; method: "GET" | "POST" }
	| { endpoint: "history"; id: string }
	| { endpoint: "interrupt" | "view" };

function matchRoute(method: string, path: string): Route | undefined {
	if ((method === "GET" || method === "POST") && (path === "/prompt" || path === "/queue")) {
		return { endpoint: path === "/prompt" ? "prompt" : "queue", method };
	}
	const history = /^\/history\/([^/]+)$/.exec(path);
	if (method === "GET" && history)
		return { endpoint: "history", id: decodeURIComponent(history[1] ?? "") };
	if (method === "POST" && path === "/interrupt") return { endpoint: "interrupt" };
	if (method === "GET" && path === "/view") return { endpoint: "view" };
	return undefined;
}

// The checks ComfyUI's validation makes that a workflow from Atelier can get wrong.
function validateNodes(
	workflow: Workflow,
	checkpoints: readonly string[],
): Record<string, NodeError[]> {
	const errors: Record<string, NodeError[]> = {};
	const add = (id: string, error: NodeError) => {
		errors[id] = [...(errors[id] ?? []), error];
	};
	for (const [id, node] of Object.entries(workflow)) {
		for (const [name, value] of Object.entries(node.inputs)) {
			if (Array.isArray(value) && typeof value[0] === "string" && !(value[0] in workflow)) {
				add(id, {
					type: "required_input_missing",
					message: "Required input is missing",
					details: name,
				});
			}
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
		if (node.class_type === "CLIPTextEncode" && typeof node.inputs.text !== "string") {
			add(id, {
				type: "required_input_missing",
				message: "Required input is missing",
				details: "text",
			});
		}
		if (LATENT_CLASSES.includes(node.class_type)) {
			for (const name of ["width", "height"]) {
				const value = node.inputs[name];
				if (typeof value !== "number" || value < 16 || value > 16_384 || value % 8 !== 0) {
					add(id, {
						type: "value_not_valid",
						message: `Value ${String(value)} is not a multiple of 8 between 16 and 16384`,
						details: name,
					});
				}
			}
			const batch = node.inputs.batch_size;
			if (typeof batch !== "number" || batch < 1 || batch > 4096) {
				add(id, {
					type: "value_bigger_than_max",
					message: "Value out of range",
					details: "batch_size",
				});
			}
		}
		if (node.class_type === "KSampler") {
			const seed = node.inputs.seed;
			if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0) {
				add(id, {
					type: "value_not_valid",
					message: "Seed must be a non-negative integer",
					details: "seed",
				});
			}
		}
	}
	return errors;
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
