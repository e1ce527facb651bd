import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { z } from "zod";
import { PIXEL_SIZES } from "../../providers/shared/pixel-sizes";
import {
	createFailurePlan,
	decodeDataUri,
	FAKE_REFUSED_WORD,
	type FailureTiming,
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

export const FAKE_FAL_ENDPOINTS = ["submit", "status", "result", "cancel", "file"] as const;
type FakeFalEndpoint = (typeof FAKE_FAL_ENDPOINTS)[number];

/** Each failure a request can be told to answer with instead of its normal reply. */
export const FAKE_FAL_FAILURES = {
	"rate-limited": "429 (with Retry-After when retryAfterSeconds is set; fal documents none)",
	"server-error": "502 from the gateway, without fal's error type",
	unauthorized: "401 { detail }",
	"no-balance": '403 { detail: "User is locked. Reason: Exhausted balance." }',
	"not-found": "404 { detail }",
	"bad-json": "200 with an HTML page",
	malformed: "200 with JSON of the wrong shape",
	hang: "never answers",
	drop: "closes the connection",
} as const;
type FakeFalFailure = keyof typeof FAKE_FAL_FAILURES;

/** How a request ends once its time in progress is over: what its result answers. */
type FakeFalOutcome =
	/** 200 with the images */
	| "ok"
	/** 200 with every image flagged by the safety checker (and blacked out) */
	| "nsfw"
	/** 200 with the first image flagged */
	| "nsfw-some"
	/** 422, as when the model's schema rejects the input */
	| "validation"
	/** 503 runner_disconnected (the model's own failure, kept by fal) */
	| "runner-error"
	/** 504 request_timeout */
	| "timeout"
	/** 504 with X-Fal-Request-Timeout-Type: user (the caller's own start timeout) */
	| "user-timeout";

export type FakeFalBehaviour = {
	/** The key every queue call needs (`Authorization: Key …`); 401 without it. */
	apiKey: string;
	/** How long a request is IN_QUEUE, then IN_PROGRESS. */
	queueMs: number;
	progressMs: number;
	/**
	 * While set (0 to 1), a request past its `queueMs` stays IN_PROGRESS, its logs at this share
	 * of its steps, whatever the clock says; null lets the clock decide.
	 */
	progressHeldAt: number | null;
	outcome: FakeFalOutcome;
	/** How long a result stays readable after completion (fal: 1 h, 6 min when ≥ 10 KB). */
	resultTtlMs: number;
	/** Whether CDN files answer 404 (media expired). */
	isMediaMissing: boolean;
	/** Sent as Retry-After on 429 when set. */
	retryAfterSeconds: number | null;
	/** Latency of every queue answer (not of file downloads). */
	requestDelayMs: number;
	/** When set, status/response/cancel URLs point at this origin (to test where the key goes). */
	urlOrigin: string | null;
	/**
	 * The model's image inputs (flux image-to-image's `image_url` and `strength`, an upscaler's
	 * `scale`): an image arrives as a data URI, and the outputs are made from it (resized to the
	 * asked size, or to its own size times the scale), so a test can tell it was used.
	 */
	imageInputs: { image: string; strength: string; scale: string; mask?: string };
};

export type FakeFal = {
	origin: string;
	/** The queue root to configure. */
	queueUrl: string;
	requests(): readonly FakeRequest[];
	submitCount(): number;
	setBehaviour(changes: Partial<FakeFalBehaviour>): void;
	fail(endpoint: FakeFalEndpoint, kind: FakeFalFailure, timing?: FailureTiming): void;
	clearFailures(): void;
	stop(): Promise<void>;
};

export type FakeFalOptions = { port?: number; behaviour?: Partial<FakeFalBehaviour> };

export const FAKE_FAL_KEY = "fal-fake-key-id:fake-secret";

const DEFAULT_BEHAVIOUR: FakeFalBehaviour = {
	apiKey: FAKE_FAL_KEY,
	queueMs: 1_000,
	progressMs: 2_000,
	progressHeldAt: null,
	outcome: "ok",
	resultTtlMs: 6 * 60 * 1000,
	isMediaMissing: false,
	retryAfterSeconds: null,
	requestDelayMs: 0,
	urlOrigin: null,
	imageInputs: { image: "image_url", strength: "strength", scale: "scale", mask: "mask_url" },
};

const PRESET_NAMES = [
	"square_hd",
	"square",
	"portrait_4_3",
	"portrait_16_9",
	"landscape_4_3",
	"landscape_16_9",
] as const;
const PRESETS: Record<(typeof PRESET_NAMES)[number], { width: number; height: number }> = {
	square_hd: { width: 1024, height: 1024 },
	square: { width: 512, height: 512 },
	portrait_4_3: { width: 768, height: 1024 },
	portrait_16_9: { width: 576, height: 1024 },
	landscape_4_3: { width: 1024, height: 768 },
	landscape_16_9: { width: 1024, height: 576 },
};
const ULTRA_RATIOS = ["21:9", "16:9", "4:3", "3:2", "1:1", "2:3", "3:4", "9:16", "9:21"] as const;

// The Flux family's input as fal's schema checks it; unknown fields are ignored, as fal does.
const FluxInputSchema = z.object({
	prompt: z.string().min(1).optional(),
	image_size: z
		.union([
			z.enum(PRESET_NAMES),
			z.object({
				width: z.number().int().min(64).max(14_142),
				height: z.number().int().min(64).max(14_142),
			}),
		])
		.optional(),
	num_images: z.number().int().min(1).max(4).optional(),
	seed: z.number().int().optional(),
	aspect_ratio: z.enum(ULTRA_RATIOS).optional(),
});

type QueuedRequest = {
	id: string;
	appPath: string;
	submittedAt: number;
	input: unknown;
	cancelledAt: number | undefined;
};

/**
 * A local stand-in for fal.ai's queue API (PROVIDERS.md section 3): submit to
 * `/{owner}/{app}[/{path}]`, then `/{owner}/{app}/requests/{id}/status` (202 while IN_QUEUE or
 * IN_PROGRESS, 200 COMPLETED), `/requests/{id}` for the result with the model's own status, and
 * `PUT /requests/{id}/cancel`. Input is checked when the request runs, as fal does (422 result).
 */
export async function startFakeFal(options: FakeFalOptions = {}): Promise<FakeFal> {
	let behaviour: FakeFalBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
	const failures = createFailurePlan<FakeFalEndpoint, FakeFalFailure>();
	const queue = new Map<string, QueuedRequest>();

	const server = await startFakeServer({
		...(options.port === undefined ? {} : { port: options.port }),
		readDelayMs: (request) => (request.path.startsWith("/files/") ? 0 : behaviour.requestDelayMs),
		handle: (request, origin) => handle(request, origin),
	});

	async function handle(request: FakeRequest, origin: string): Promise<FakeReply> {
		const fileMatch = /^\/files\/([^/]+)\/(\d+)\.jpg$/.exec(request.path);
		if (request.method === "GET" && fileMatch) {
			const failure = failures.take("file");
			if (failure) return answerFailure(failure);
			return serveFile(fileMatch[1] ?? "", Number(fileMatch[2]));
		}
		const route = matchRoute(request);
		if (!route) return jsonReply(404, { detail: "Not Found" });
		if (request.authorization !== `Key ${behaviour.apiKey}`) {
			return jsonReply(401, { detail: "Invalid Key Authorization header format or key." });
		}
		const failure = failures.take(route.endpoint);
		if (failure) return answerFailure(failure);
		if (route.endpoint === "submit") return submit(request, origin, route.modelPath);
		const queued = queue.get(route.id);
		if (!queued || queued.appPath !== route.appPath) {
			return route.endpoint === "cancel"
				? jsonReply(404, { status: "NOT_FOUND" })
				: jsonReply(404, { detail: `Request ${route.id} not found` });
		}
		switch (route.endpoint) {
			case "status":
				return answerStatus(queued, origin, request.query.get("logs") === "1");
			case "result":
				return answerResult(queued, origin);
			case "cancel":
				return cancel(queued);
		}
	}

	function submit(request: FakeRequest, origin: string, modelPath: string): FakeReply {
		const appPath = modelPath.split("/").slice(0, 2).join("/");
		const queued: QueuedRequest = {
			id: randomUUID(),
			appPath,
			submittedAt: Date.now(),
			input: request.body,
			cancelledAt: undefined,
		};
		queue.set(queued.id, queued);
		return jsonReply(200, {
			...describeUrls(queued, origin),
			status: "IN_QUEUE",
			queue_position: 0,
		});
	}

	function describeUrls(queued: QueuedRequest, origin: string) {
		const base = `${behaviour.urlOrigin ?? origin}/${queued.appPath}/requests/${queued.id}`;
		return {
			request_id: queued.id,
			response_url: base,
			status_url: `${base}/status`,
			cancel_url: `${base}/cancel`,
		};
	}

	function phaseOf(queued: QueuedRequest): "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" {
		if (queued.cancelledAt !== undefined) return "COMPLETED";
		const elapsed = Date.now() - queued.submittedAt;
		if (elapsed < behaviour.queueMs) return "IN_QUEUE";
		if (behaviour.progressHeldAt !== null) return "IN_PROGRESS";
		if (elapsed < behaviour.queueMs + behaviour.progressMs) return "IN_PROGRESS";
		return "COMPLETED";
	}

	function completedAt(queued: QueuedRequest): number {
		return queued.cancelledAt ?? queued.submittedAt + behaviour.queueMs + behaviour.progressMs;
	}

	/**
	 * How many requests submitted before this one still wait in the queue. Before means earlier in
	 * the map, which keeps submission order: two submitted in the same millisecond have one order.
	 */
	function queuePositionOf(queued: QueuedRequest): number {
		const earlier = [...queue.values()];
		earlier.length = earlier.indexOf(queued);
		return earlier.filter((other) => phaseOf(other) === "IN_QUEUE").length;
	}

	/** A model's log lines while it works, a tqdm bar of its steps among them (as diffusers print). */
	function logLines(queued: QueuedRequest, status: "IN_PROGRESS" | "COMPLETED") {
		const share =
			status === "COMPLETED"
				? 1
				: (behaviour.progressHeldAt ??
					(behaviour.progressMs <= 0
						? 1
						: Math.min(
								1,
								(Date.now() - queued.submittedAt - behaviour.queueMs) / behaviour.progressMs,
							)));
		const steps = 28;
		const step = Math.floor(share * steps);
		const percent = Math.floor((step / steps) * 100);
		const bar = "█".repeat(Math.floor(percent / 10)).padEnd(10, " ");
		return [
			"Generating images",
			`${percent}%|${bar}| ${step}/${steps} [00:01<00:02, 9.50it/s]`,
		].map((message) => ({
			message,
			level: "INFO",
			source: "user",
			timestamp: new Date().toISOString(),
		}));
	}

	function answerStatus(queued: QueuedRequest, origin: string, withLogs: boolean): FakeReply {
		const status = phaseOf(queued);
		const logs = withLogs && status !== "IN_QUEUE" ? logLines(queued, status) : undefined;
		return jsonReply(status === "COMPLETED" ? 200 : 202, {
			...describeUrls(queued, origin),
			status,
			...(status === "IN_QUEUE" ? { queue_position: queuePositionOf(queued) } : {}),
			...(logs ? { logs } : {}),
			...(status === "COMPLETED"
				? { metrics: { inference_time: behaviour.progressMs / 1000 } }
				: {}),
		});
	}

	function answerResult(queued: QueuedRequest, origin: string): FakeReply {
		if (phaseOf(queued) !== "COMPLETED")
			return jsonReply(400, { detail: "Request is still in progress" });
		if (Date.now() > completedAt(queued) + behaviour.resultTtlMs) {
			return jsonReply(404, { detail: `Request ${queued.id} not found` });
		}
		if (queued.cancelledAt !== undefined)
			return jsonReply(400, { detail: "Request was cancelled" });
		const input = FluxInputSchema.safeParse(queued.input);
		if (!input.success) {
			return jsonReply(422, {
				detail: input.error.issues.map((issue) => ({
					loc: ["body", ...issue.path.map(String)],
					msg: issue.message,
					type: "value_error",
				})),
			});
		}
		const source = readSource(queued.input);
		if (source && "problem" in source) {
			return jsonReply(422, {
				detail: [
					{ loc: ["body", source.problem.field], msg: source.problem.msg, type: "value_error" },
				],
			});
		}
		// An upscaler takes no prompt; every other model needs one.
		if (input.data.prompt === undefined && source?.scale === undefined) {
			return jsonReply(422, {
				detail: [{ loc: ["body", "prompt"], msg: "field required", type: "value_error.missing" }],
			});
		}
		const outcome = (input.data.prompt ?? "").toLowerCase().includes(FAKE_REFUSED_WORD)
			? "nsfw"
			: behaviour.outcome;
		switch (outcome) {
			case "validation":
				return jsonReply(422, {
					detail: [
						{
							loc: ["body", "prompt"],
							msg: "String should have at most 20 characters",
							type: "string_too_long",
						},
					],
				});
			case "runner-error":
				return jsonReply(
					503,
					{ detail: "Runner disconnected", error_type: "runner_disconnected" },
					{ "x-fal-error-type": "runner_disconnected" },
				);
			case "timeout":
				return jsonReply(
					504,
					{ detail: "Request timed out", error_type: "request_timeout" },
					{ "x-fal-error-type": "request_timeout" },
				);
			case "user-timeout":
				return jsonReply(
					504,
					{ detail: "Request timed out", error_type: "request_timeout" },
					{ "x-fal-error-type": "request_timeout", "x-fal-request-timeout-type": "user" },
				);
		}
		const size = sizeOf(input.data);
		const count = input.data.num_images ?? 1;
		const flags = Array.from(
			{ length: count },
			(_, index) => outcome === "nsfw" || (outcome === "nsfw-some" && index === 0),
		);
		return jsonReply(200, {
			images: Array.from({ length: count }, (_, index) => ({
				url: `${origin}/files/${queued.id}/${index}.jpg`,
				width: size.width,
				height: size.height,
				content_type: "image/jpeg",
			})),
			timings: { inference: behaviour.progressMs / 1000 },
			seed: 123456,
			has_nsfw_concepts: flags,
			prompt: input.data.prompt ?? "",
		});
	}

	/** The image input's data URI, decoded, with the upscale factor; or the field fal refuses. */
	function readSource(
		rawInput: unknown,
	):
		| { data: Uint8Array; scale: number | undefined; mask?: Uint8Array }
		| { problem: { field: string; msg: string } }
		| undefined {
		const names = behaviour.imageInputs;
		const fields = z.record(z.string(), z.unknown()).safeParse(rawInput);
		const value = fields.success ? fields.data[names.image] : undefined;
		// A URL is a file input too; the fake does not fetch it, and draws as from a prompt.
		if (!fields.success || value === undefined || isHttpUrl(value)) return undefined;
		const image = decodeDataUri(fields.data[names.image]);
		if (!image) return { problem: { field: names.image, msg: "Invalid image URL or data URI" } };
		const strength = fields.data[names.strength];
		if (strength !== undefined && (typeof strength !== "number" || strength < 0 || strength > 1)) {
			return { problem: { field: names.strength, msg: "Input should be between 0 and 1" } };
		}
		const scale = fields.data[names.scale];
		if (scale !== undefined && (typeof scale !== "number" || scale < 1 || scale > 8)) {
			return { problem: { field: names.scale, msg: "Input should be between 1 and 8" } };
		}
		const mask = readMaskInput(names.mask ? fields.data[names.mask] : undefined, image.data);
		if (mask && "problem" in mask)
			return { problem: { field: names.mask ?? "mask_url", msg: mask.problem } };
		return { data: image.data, scale, ...(mask ? { mask: mask.data } : {}) };
	}

	function cancel(queued: QueuedRequest): FakeReply {
		if (phaseOf(queued) === "COMPLETED") return jsonReply(400, { status: "ALREADY_COMPLETED" });
		queued.cancelledAt = Date.now();
		return jsonReply(202, { status: "CANCELLATION_REQUESTED" });
	}

	async function serveFile(id: string, index: number): Promise<FakeReply> {
		const queued = queue.get(id);
		const input = FluxInputSchema.safeParse(queued?.input);
		if (
			!queued ||
			!input.success ||
			behaviour.isMediaMissing ||
			index >= (input.data.num_images ?? 1)
		) {
			return textReply(404, "Not Found");
		}
		const source = readSource(queued.input);
		if (source && "data" in source) {
			const { width = 1, height = 1 } = await sharp(source.data).metadata();
			const scale = source.scale;
			const made = await renderFromImage({
				source: source.mask ? await repaintWholeImage(source.data) : source.data,
				...(scale === undefined
					? sizeOf(input.data)
					: { width: width * scale, height: height * scale }),
				format: "jpeg",
			});
			return { kind: "bytes", status: 200, data: made.data, contentType: made.contentType };
		}
		const image = await renderFakeImage({ ...sizeOf(input.data), seed: id, index, format: "jpeg" });
		return { kind: "bytes", status: 200, data: image.data, contentType: image.contentType };
	}

	function answerFailure(kind: FakeFalFailure): FakeReply {
		switch (kind) {
			case "rate-limited":
				return jsonReply(
					429,
					{ detail: "Too many requests" },
					behaviour.retryAfterSeconds === null
						? {}
						: { "retry-after": String(behaviour.retryAfterSeconds) },
				);
			case "server-error":
				return textReply(502, "Bad Gateway");
			case "no-balance":
				return jsonReply(403, {
					detail:
						"User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.",
				});
			case "unauthorized":
				return jsonReply(401, { detail: "Invalid Key Authorization header format or key." });
			case "not-found":
				return jsonReply(404, { detail: "Request not found" });
			case "bad-json":
				return textReply(200, "<html>upstream connect error</html>", "text/html");
			case "malformed":
				return jsonReply(200, { status: 7, images: "none" });
			case "hang":
				return { kind: "hang" };
			case "drop":
				return { kind: "drop" };
		}
	}

	return {
		origin: server.origin,
		queueUrl: server.origin,
		requests: server.requests,
		submitCount: () =>
			server.requests().filter((request) => matchRoute(request)?.endpoint === "submit").length,
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		fail: (endpoint, kind, timing) => failures.fail(endpoint, kind, timing),
		clearFailures: () => failures.clear(),
		stop: server.stop,
	};
}

type Route =
	| { endpoint: "submit"; modelPath: string }
	| { endpoint: "status" | "result" | "cancel"; appPath: string; id: string };

function matchRoute(request: FakeRequest): Route | undefined {
	const requestMatch = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(
		request.path,
	);
	if (requestMatch) {
		const [, appPath = "", id = "", suffix] = requestMatch;
		if (request.method === "GET" && suffix === "/status")
			return { endpoint: "status", appPath, id };
		if (request.method === "GET" && suffix === undefined)
			return { endpoint: "result", appPath, id };
		if (request.method === "PUT" && suffix === "/cancel")
			return { endpoint: "cancel", appPath, id };
		return undefined;
	}
	const submitMatch = /^\/([^/]+\/[^/]+(?:\/[^/]+)*)$/.exec(request.path);
	if (request.method === "POST" && submitMatch)
		return { endpoint: "submit", modelPath: submitMatch[1] ?? "" };
	return undefined;
}

function sizeOf(input: z.infer<typeof FluxInputSchema>): { width: number; height: number } {
	if (input.aspect_ratio) {
		const [width = 1, height = 1] = input.aspect_ratio.split(":").map(Number);
		for (const size of Object.values(PIXEL_SIZES["1mp"])) {
			if (Math.abs(size.width / size.height - width / height) < 0.1) return size;
		}
	}
	const imageSize = input.image_size ?? "landscape_4_3";
	if (typeof imageSize === "string") return PRESETS[imageSize];
	return imageSize;
}
