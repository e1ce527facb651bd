import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { z } from "zod";
import { PIXEL_SIZES } from "../../providers/shared/pixel-sizes";
import {
	createFailurePlan,
	decodeDataUri,
	FAKE_REFUSED_WORD,
	type FailureTiming,
	type FakeImageFormat,
	type FakeReply,
	type FakeRequest,
	isHttpUrl,
	jsonReply,
	readMaskInput,
	renderFakeImage,
	renderFromImage,
	repaintWholeImage,
	startFakeServer,
	textReply,
} from "./fake-server";

export const FAKE_REPLICATE_ENDPOINTS = ["create", "get", "cancel", "file"] as const;
type FakeReplicateEndpoint = (typeof FAKE_REPLICATE_ENDPOINTS)[number];

/** Each failure a request can be told to answer with instead of its normal reply. */
export const FAKE_REPLICATE_FAILURES = {
	validation: "422 `Input validation failed` with `invalid_fields`",
	"no-credit": "402 when the account has no credit",
	"rate-limited": "429 `Request was throttled` with Retry-After",
	"server-error": "500 (create) or 503 (others) problem JSON",
	"not-found": '404 `{ detail: "Not found." }`',
	"bad-json": "200 with an HTML page instead of JSON",
	malformed: "200 with JSON that is not a prediction",
	hang: "never answers",
	drop: "closes the connection",
} as const;
type FakeReplicateFailure = keyof typeof FAKE_REPLICATE_FAILURES;

/** How a prediction ends once its processing time is over. */
type FakeReplicateOutcome = "succeeded" | "failed" | "nsfw" | "canceled" | "aborted";

export type FakeReplicateBehaviour = {
	/** The token every API call needs (`Authorization: Bearer …`); 401 without it. */
	apiToken: string;
	/** How long a prediction stays `starting`, then `processing`. */
	startingMs: number;
	processingMs: number;
	/**
	 * While set (0 to 1), a prediction past its `startingMs` stays `processing`, its logs at this
	 * share of its steps, whatever the clock says; null lets the clock decide.
	 */
	processingHeldAt: number | null;
	outcome: FakeReplicateOutcome;
	/** The `error` of a failed prediction. */
	failureMessage: string;
	/** flux-schnell answers an array of file URLs; other models a single string. */
	outputStyle: "array" | "string";
	/** After this long past completion a prediction's output is removed and its files 404. */
	resultTtlMs: number;
	retryAfterSeconds: number;
	/** Latency of every API answer (not of file downloads). */
	requestDelayMs: number;
	/** When set, `urls.get` and `urls.cancel` point at this origin (to test where the token goes). */
	urlOrigin: string | null;
	/**
	 * The model's image inputs (flux-dev's `image` and `prompt_strength`, an upscaler's `scale`):
	 * an image arrives as a data URI, and the outputs are made from it (resized to the ratio's
	 * size, or to the image's own size times the scale), so a test can tell it was used.
	 */
	imageInputs: { image: string; strength: string; scale: string; mask?: string };
};

export type FakeReplicate = {
	origin: string;
	/** The API root to configure, `<origin>/v1`. */
	baseUrl: string;
	requests(): readonly FakeRequest[];
	createCount(): number;
	setBehaviour(changes: Partial<FakeReplicateBehaviour>): void;
	/** Requests to `endpoint` fail with `kind` (see FailurePlan for `times` and `after`). */
	fail(endpoint: FakeReplicateEndpoint, kind: FakeReplicateFailure, timing?: FailureTiming): void;
	clearFailures(): void;
	stop(): Promise<void>;
};

export type FakeReplicateOptions = {
	port?: number;
	behaviour?: Partial<FakeReplicateBehaviour>;
};

export const FAKE_REPLICATE_TOKEN = "r8_fake_token";

const DEFAULT_BEHAVIOUR: FakeReplicateBehaviour = {
	apiToken: FAKE_REPLICATE_TOKEN,
	startingMs: 1_000,
	processingMs: 2_000,
	processingHeldAt: null,
	outcome: "succeeded",
	failureMessage: "CUDA out of memory. Tried to allocate 2.00 GiB",
	outputStyle: "array",
	resultTtlMs: 60 * 60 * 1000,
	retryAfterSeconds: 2,
	requestDelayMs: 0,
	urlOrigin: null,
	imageInputs: { image: "image", strength: "prompt_strength", scale: "scale", mask: "mask" },
};

const ASPECT_RATIOS = [
	"1:1",
	"16:9",
	"21:9",
	"3:2",
	"2:3",
	"4:5",
	"5:4",
	"3:4",
	"4:3",
	"9:16",
	"9:21",
];
const OUTPUT_FORMATS = ["webp", "jpg", "png"] as const;
const NSFW_MESSAGE =
	"NSFW content detected in all generated images. Try running it again, or try a different prompt.";

type Prediction = {
	id: string;
	model: string;
	input: { prompt: string; aspectRatio: string; numOutputs: number; format: FakeImageFormat };
	/** The image the prediction was given, and the scale an upscaler was asked for. */
	source: { data: Uint8Array; scale: number | undefined; mask?: Uint8Array } | undefined;
	rawInput: unknown;
	createdAt: number;
	/** The prompt holds the fake's refused word: the safety checker fails it. */
	isRefused: boolean;
	/** From the Cancel-After header: stops the prediction this long after creation. */
	deadlineMs: number | undefined;
	canceledAt: number | undefined;
};

// flux-schnell's input, as the model's schema checks it.
const InputSchema = z.object({
	prompt: z.string().min(1, "prompt is required").optional(),
	aspect_ratio: z
		.string()
		.refine((value) => ASPECT_RATIOS.includes(value), {
			message: `aspect_ratio must be one of the following: ${ASPECT_RATIOS.map((ratio) => `"${ratio}"`).join(", ")}`,
		})
		.optional(),
	num_outputs: z.number().int().min(1).max(4).optional(),
	seed: z.number().int("seed must be an integer").optional(),
	output_format: z.enum(OUTPUT_FORMATS).optional(),
});

/**
 * A local stand-in for Replicate's predictions API (PROVIDERS.md section 1): create at
 * `/v1/models/{owner}/{name}/predictions` or `/v1/predictions`, follow at `urls.get`, cancel at
 * `urls.cancel`, files at `/files/...`. Predictions move from starting (no logs, no `started_at`)
 * to processing (with tqdm logs) to their outcome on the clock, or stay processing at the share
 * a test holds them at; `Prefer: wait` and `Cancel-After` are honoured.
 */
export async function startFakeReplicate(
	options: FakeReplicateOptions = {},
): Promise<FakeReplicate> {
	let behaviour: FakeReplicateBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
	const failures = createFailurePlan<FakeReplicateEndpoint, FakeReplicateFailure>();
	const predictions = new Map<string, Prediction>();

	const server = await startFakeServer({
		...(options.port === undefined ? {} : { port: options.port }),
		readDelayMs: (request) => (request.path.startsWith("/files/") ? 0 : behaviour.requestDelayMs),
		handle: (request, origin) => handle(request, origin),
	});

	async function handle(request: FakeRequest, origin: string): Promise<FakeReply> {
		const fileMatch = /^\/files\/([^/]+)\/out-(\d+)\.(\w+)$/.exec(request.path);
		if (request.method === "GET" && fileMatch) {
			const failure = failures.take("file");
			if (failure) return answerFailure(failure, "file");
			return serveFile(fileMatch[1] ?? "", Number(fileMatch[2]));
		}
		const route = matchRoute(request);
		if (!route) return jsonReply(404, { detail: "Not found." });
		if (request.authorization !== `Bearer ${behaviour.apiToken}`) {
			return jsonReply(401, {
				title: "Unauthenticated",
				detail: "You did not pass a valid authentication token",
				status: 401,
			});
		}
		const failure = failures.take(route.endpoint);
		if (failure) return answerFailure(failure, route.endpoint);
		switch (route.endpoint) {
			case "create":
				return create(request, origin, route.model);
			case "get":
				return answerPrediction(route.id, origin);
			case "cancel":
				return cancel(route.id, origin);
		}
	}

	async function create(
		request: FakeRequest,
		origin: string,
		model: string | undefined,
	): Promise<FakeReply> {
		const body = z.record(z.string(), z.unknown()).safeParse(request.body);
		if (!body.success) return validationError("body", "body must be a JSON object");
		const allowed =
			model === undefined
				? ["version", "input", "webhook", "webhook_events_filter"]
				: ["input", "webhook", "webhook_events_filter"];
		const extra = Object.keys(body.data).find((key) => !allowed.includes(key));
		if (extra) return validationError(extra, `Additional property ${extra} is not allowed`);
		const version = body.data.version;
		if (model === undefined && typeof version !== "string") {
			return validationError("version", "version is required");
		}
		const input = InputSchema.safeParse(body.data.input);
		if (!input.success) {
			const issue = input.error.issues[0];
			return validationError(
				`input.${issue?.path.join(".") ?? ""}`,
				issue?.message ?? "invalid input",
			);
		}
		const source = readSourceImage(body.data.input);
		if (source && "problem" in source) {
			return validationError(`input.${source.problem.field}`, source.problem.description);
		}
		// An upscaler takes no prompt; every other model needs one.
		if (input.data.prompt === undefined && source?.scale === undefined) {
			return validationError("input.prompt", "prompt is required");
		}
		const prompt = input.data.prompt ?? "";
		const id = randomBytes(13)
			.toString("base64url")
			.toLowerCase()
			.replace(/[^a-z0-9]/g, "a");
		const format =
			input.data.output_format === "jpg" ? "jpeg" : (input.data.output_format ?? "webp");
		const prediction: Prediction = {
			id,
			model: model ?? String(version).split(":")[0] ?? "",
			source,
			input: {
				prompt,
				aspectRatio: input.data.aspect_ratio ?? "1:1",
				numOutputs: input.data.num_outputs ?? 1,
				format,
			},
			rawInput: body.data.input,
			createdAt: Date.now(),
			isRefused: prompt.toLowerCase().includes(FAKE_REFUSED_WORD),
			deadlineMs: parseDuration(request.headers["cancel-after"]),
			canceledAt: undefined,
		};
		predictions.set(id, prediction);
		const wait = parsePreferWait(request.headers.prefer);
		if (wait === undefined) return jsonReply(201, toPredictionJson(prediction, origin));
		// Prefer: wait holds the answer until the prediction is done or the wait is over.
		const untilDone = behaviour.startingMs + behaviour.processingMs;
		return new Promise<FakeReply>((resolve) => {
			setTimeout(
				() => resolve(jsonReply(201, toPredictionJson(prediction, origin))),
				Math.min(untilDone, wait * 1000),
			);
		});
	}

	/** The image input's data URI, decoded, with the scale; or the field Replicate refuses. */
	function readSourceImage(
		rawInput: unknown,
	):
		| { data: Uint8Array; scale: number | undefined; mask?: Uint8Array }
		| { problem: { field: string; description: string } }
		| undefined {
		const refuse = (field: string, description: string) => ({
			problem: { field, description: `${field}: ${description}` },
		});
		const names = behaviour.imageInputs;
		const fields = z.record(z.string(), z.unknown()).safeParse(rawInput);
		const value = fields.success ? fields.data[names.image] : undefined;
		// A URL is a file input too; the fake does not fetch it, and draws as from a prompt.
		if (value === undefined || isHttpUrl(value)) return undefined;
		const image = decodeDataUri(value);
		if (!image) {
			return refuse(names.image, "Does not match format 'uri'");
		}
		const strength = fields.success ? fields.data[names.strength] : undefined;
		if (strength !== undefined && (typeof strength !== "number" || strength < 0 || strength > 1)) {
			return refuse(names.strength, "Must be between 0 and 1");
		}
		const scale = fields.success ? fields.data[names.scale] : undefined;
		if (scale !== undefined && (typeof scale !== "number" || scale < 1 || scale > 10)) {
			return refuse(names.scale, "Must be between 1 and 10");
		}
		const mask = readMaskInput(
			fields.success && names.mask ? fields.data[names.mask] : undefined,
			image.data,
		);
		if (mask && "problem" in mask) return refuse(names.mask ?? "mask", mask.problem);
		return { data: image.data, scale, ...(mask ? { mask: mask.data } : {}) };
	}

	function answerPrediction(id: string, origin: string): FakeReply {
		const prediction = predictions.get(id);
		if (!prediction) return jsonReply(404, { detail: "Not found." });
		return jsonReply(200, toPredictionJson(prediction, origin));
	}

	function cancel(id: string, origin: string): FakeReply {
		const prediction = predictions.get(id);
		if (!prediction) return jsonReply(404, { detail: "Not found." });
		if (!isTerminal(describeState(prediction, behaviour).status))
			prediction.canceledAt = Date.now();
		return jsonReply(200, toPredictionJson(prediction, origin));
	}

	function toPredictionJson(prediction: Prediction, origin: string): unknown {
		const state = describeState(prediction, behaviour);
		const urlBase = `${behaviour.urlOrigin ?? origin}/v1/predictions/${prediction.id}`;
		const isRemoved =
			state.status !== "starting" && state.status !== "processing" && state.isExpired;
		const output =
			state.status === "succeeded" && !isRemoved
				? Array.from(
						{ length: prediction.input.numOutputs },
						(_, index) =>
							`${origin}/files/${prediction.id}/out-${index}.${extensionOf(prediction)}`,
					)
				: null;
		return {
			id: prediction.id,
			model: prediction.model,
			version: "hidden",
			input: prediction.rawInput,
			logs: state.logs,
			output: output && behaviour.outputStyle === "string" ? output[0] : output,
			data_removed: isRemoved,
			error: state.status === "failed" ? state.error : null,
			status: state.status,
			created_at: new Date(prediction.createdAt).toISOString(),
			...(state.startedAt ? { started_at: new Date(state.startedAt).toISOString() } : {}),
			...(state.completedAt
				? {
						completed_at: new Date(state.completedAt).toISOString(),
						metrics: {
							predict_time: behaviour.processingMs / 1000,
							total_time: (state.completedAt - prediction.createdAt) / 1000,
						},
					}
				: {}),
			urls: {
				get: urlBase,
				cancel: `${urlBase}/cancel`,
				web: `https://replicate.com/p/${prediction.id}`,
			},
		};
	}

	async function serveFile(id: string, index: number): Promise<FakeReply> {
		const prediction = predictions.get(id);
		const state = prediction ? describeState(prediction, behaviour) : undefined;
		if (
			!prediction ||
			state?.status !== "succeeded" ||
			state.isExpired ||
			index >= prediction.input.numOutputs
		) {
			return textReply(404, "Not found");
		}
		const [ratioWidth = "1", ratioHeight = "1"] = prediction.input.aspectRatio.split(":");
		const size = findSize(Number(ratioWidth), Number(ratioHeight));
		if (prediction.source) {
			const { width = 1, height = 1 } = await sharp(prediction.source.data).metadata();
			const scale = prediction.source.scale;
			const image = await renderFromImage({
				source: prediction.source.mask
					? await repaintWholeImage(prediction.source.data)
					: prediction.source.data,
				...(scale === undefined ? size : { width: width * scale, height: height * scale }),
				format: prediction.input.format,
			});
			return { kind: "bytes", status: 200, data: image.data, contentType: image.contentType };
		}
		const image = await renderFakeImage({
			...size,
			seed: id,
			index,
			format: prediction.input.format,
		});
		return { kind: "bytes", status: 200, data: image.data, contentType: image.contentType };
	}

	function answerFailure(kind: FakeReplicateFailure, endpoint: FakeReplicateEndpoint): FakeReply {
		switch (kind) {
			case "validation":
				return validationError("input.prompt", "prompt is required");
			case "no-credit":
				return jsonReply(402, {
					title: "Insufficient credit",
					detail:
						"You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit.",
					status: 402,
				});
			case "rate-limited":
				return jsonReply(
					429,
					{
						detail: `Request was throttled. Your rate limit resets in ~${behaviour.retryAfterSeconds}s.`,
						status: 429,
					},
					{ "retry-after": String(behaviour.retryAfterSeconds) },
				);
			case "server-error":
				return endpoint === "create"
					? jsonReply(500, {
							title: "Internal Server Error",
							detail: "Something went wrong",
							status: 500,
						})
					: textReply(503, "Service Unavailable");
			case "not-found":
				return jsonReply(404, { detail: "Not found." });
			case "bad-json":
				return textReply(200, "<html><body>Bad gateway</body></html>", "text/html");
			case "malformed":
				return jsonReply(200, { id: 42, status: ["starting"] });
			case "hang":
				return { kind: "hang" };
			case "drop":
				return { kind: "drop" };
		}
	}

	return {
		origin: server.origin,
		baseUrl: `${server.origin}/v1`,
		requests: server.requests,
		createCount: () =>
			server.requests().filter((request) => matchRoute(request)?.endpoint === "create").length,
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		fail: (endpoint, kind, timing) => failures.fail(endpoint, kind, timing),
		clearFailures: () => failures.clear(),
		stop: server.stop,
	};
}

type Route =
	| { endpoint: "create"; model: string | undefined }
	| { endpoint: "get" | "cancel"; id: string };

function matchRoute(request: FakeRequest): Route | undefined {
	if (request.method === "POST") {
		const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(request.path);
		if (official) return { endpoint: "create", model: `${official[1]}/${official[2]}` };
		if (request.path === "/v1/predictions") return { endpoint: "create", model: undefined };
		const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(request.path);
		if (cancel) return { endpoint: "cancel", id: cancel[1] ?? "" };
	}
	if (request.method === "GET") {
		const get = /^\/v1\/predictions\/([^/]+)$/.exec(request.path);
		if (get) return { endpoint: "get", id: get[1] ?? "" };
	}
	return undefined;
}

type PredictionState = {
	status: "starting" | "processing" | "succeeded" | "failed" | "canceled" | "aborted";
	logs: string;
	error: string | null;
	startedAt: number | undefined;
	completedAt: number | undefined;
	isExpired: boolean;
};

// The prediction's state now, from the clock and the current knobs (so a test can let waiting
// predictions finish): starting, processing, then its outcome; a cancel or a Cancel-After
// deadline ends it early.
function describeState(prediction: Prediction, behaviour: FakeReplicateBehaviour): PredictionState {
	const now = Date.now();
	const startedAt = prediction.createdAt + behaviour.startingMs;
	const heldAt = behaviour.processingHeldAt;
	const doneAt = heldAt === null ? startedAt + behaviour.processingMs : Number.POSITIVE_INFINITY;
	const deadline =
		prediction.deadlineMs === undefined ? undefined : prediction.createdAt + prediction.deadlineMs;
	const stoppedAt = Math.min(
		prediction.canceledAt ?? Number.POSITIVE_INFINITY,
		deadline ?? Number.POSITIVE_INFINITY,
	);
	const ended = (
		status: PredictionState["status"],
		at: number,
		error: string | null = null,
	): PredictionState => ({
		status,
		logs: status === "succeeded" ? formatLogs(100) : "",
		error,
		startedAt: at > startedAt ? startedAt : undefined,
		completedAt: at,
		isExpired: now > at + behaviour.resultTtlMs,
	});
	if (stoppedAt <= now && stoppedAt < doneAt) {
		const isDeadline =
			prediction.canceledAt === undefined ||
			(deadline !== undefined && deadline < prediction.canceledAt);
		return ended(isDeadline && stoppedAt < startedAt ? "aborted" : "canceled", stoppedAt);
	}
	if (now < startedAt) {
		return {
			status: "starting",
			logs: "",
			error: null,
			startedAt: undefined,
			completedAt: undefined,
			isExpired: false,
		};
	}
	if (now < doneAt) {
		const share =
			heldAt ?? (behaviour.processingMs > 0 ? (now - startedAt) / behaviour.processingMs : 1);
		return {
			status: "processing",
			logs: formatLogs(Math.floor(share * 100)),
			error: null,
			startedAt,
			completedAt: undefined,
			isExpired: false,
		};
	}
	switch (prediction.isRefused ? "nsfw" : behaviour.outcome) {
		case "succeeded":
			return ended("succeeded", doneAt);
		case "failed":
			return ended("failed", doneAt, behaviour.failureMessage);
		case "nsfw":
			return ended("failed", doneAt, NSFW_MESSAGE);
		case "canceled":
			return ended("canceled", doneAt);
		case "aborted":
			return ended("aborted", doneAt);
	}
}

function isTerminal(status: PredictionState["status"]): boolean {
	return status !== "starting" && status !== "processing";
}

// tqdm's progress lines, as flux-schnell prints them for its four steps.
function formatLogs(percent: number): string {
	const steps = Math.min(4, Math.floor((percent / 100) * 4));
	const lines = ["Using seed: 1234567", "running quantized prediction"];
	for (let step = 0; step <= steps; step++) {
		const share = Math.round((step / 4) * 100);
		lines.push(
			`${String(share).padStart(3)}%|${"█".repeat(step * 2).padEnd(8)}| ${step}/4 [00:00<00:00,  5.0it/s]`,
		);
	}
	return lines.join("\n");
}

function extensionOf(prediction: Prediction): string {
	return prediction.input.format === "jpeg" ? "jpg" : prediction.input.format;
}

// flux-schnell's ~1 megapixel sizes per ratio; ratios outside ours fall back to the square.
function findSize(width: number, height: number): { width: number; height: number } {
	for (const size of Object.values(PIXEL_SIZES["1mp"])) {
		if (Math.abs(size.width / size.height - width / height) < 0.1) return size;
	}
	return PIXEL_SIZES["1mp"]["--ar 1:1"];
}

function validationError(field: string, description: string): FakeReply {
	return jsonReply(422, {
		detail: `- ${field}: ${description}\n`,
		status: 422,
		title: "Input validation failed",
		invalid_fields: [{ type: "invalid", field, description }],
	});
}

function parseDuration(header: string | string[] | undefined): number | undefined {
	const match = typeof header === "string" ? /^(\d+)(ms|s|m|h)$/.exec(header.trim()) : null;
	if (!match) return undefined;
	const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"] ?? 1_000;
	return Number(match[1]) * unit;
}

function parsePreferWait(header: string | string[] | undefined): number | undefined {
	const match =
		typeof header === "string" ? /^wait(=([1-9]|[1-9][0-9]|60))?$/.exec(header.trim()) : null;
	if (!match) return undefined;
	return match[2] === undefined ? 60 : Number(match[2]);
}
