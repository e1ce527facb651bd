import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { z } from "zod";
import {
	createFailurePlan,
	FAKE_REFUSED_WORD,
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
import { answerChatCompletion, type FakeChatAnswer } from "./openai-chat";
import { answerModeration } from "./openai-moderations";

export const FAKE_OPENAI_ENDPOINTS = ["generate", "edit"] as const;
type FakeOpenAiEndpoint = (typeof FAKE_OPENAI_ENDPOINTS)[number];

/** Each failure a request can be told to answer with instead of its normal reply. */
export const FAKE_OPENAI_FAILURES = {
	moderation: "400 `moderation_blocked` (the safety system)",
	invalid: "400 `invalid_request_error` on `size`",
	"org-unverified": "403, an organization that must be verified for GPT image models",
	"rate-limited": "429 `rate_limit_exceeded` with retry-after, retry-after-ms and x-ratelimit-*",
	"insufficient-quota": "429 `insufficient_quota` (not worth a retry)",
	"server-error": "500 `server_error`",
	"no-retry": "503 with `x-should-retry: false`",
	"bad-json": "200 with an HTML page",
	malformed: "200 with JSON of the wrong shape",
	"not-image": "200 whose base64 is not an image",
	hang: "never answers",
	drop: "closes the connection",
} as const;
type FakeOpenAiFailure = keyof typeof FAKE_OPENAI_FAILURES;

type FakeOpenAiBehaviour = {
	/** The key every call needs (`Authorization: Bearer …`); 401 without it. */
	apiKey: string;
	/** How long a generation takes before the answer is written. */
	latencyMs: number;
	retryAfterSeconds: number;
	/**
	 * Whether a streamed answer waits for the test instead of the clock: once its events have
	 * begun it sends nothing by itself; `sendPartialImage` sends its next partial frames and
	 * `finishStreams` its images. Answers streamed before the change go on as they were.
	 */
	holdsStreams: boolean;
	/** Whether `POST /v1/moderations` flags the images it is sent. */
	flagsImages: boolean;
	/** How `POST /v1/chat/completions` answers (openai-chat.ts). */
	chatAnswer: FakeChatAnswer;
};

export type FakeOpenAi = {
	origin: string;
	/** The API root to configure, `<origin>/v1`. */
	baseUrl: string;
	requests(): readonly FakeRequest[];
	generateCount(): number;
	editCount(): number;
	/**
	 * The `mask` files edits received, each checked as OpenAI does (a PNG with an alpha channel,
	 * of the image's size): its size and its alpha, 0 where the image may change.
	 */
	masks(): readonly FakeOpenAiMask[];
	setBehaviour(changes: Partial<FakeOpenAiBehaviour>): void;
	fail(endpoint: FakeOpenAiEndpoint, kind: FakeOpenAiFailure, timing?: FailureTiming): void;
	clearFailures(): void;
	/** Streamed answers waiting for the test (`holdsStreams`). */
	heldStreams(): number;
	/**
	 * Sends the next partial frame of each image on every held stream that has one left (OpenAI
	 * sends at most `partial_images`); resolves once they are written, with how many streams sent.
	 */
	sendPartialImage(): Promise<number>;
	/** Sends every held stream's finished images and ends it; resolves once they are written. */
	finishStreams(): Promise<void>;
	stop(): Promise<void>;
};

export type FakeOpenAiMask = { width: number; height: number; alpha: Buffer };

export type FakeOpenAiOptions = { port?: number; behaviour?: Partial<FakeOpenAiBehaviour> };

export const FAKE_OPENAI_KEY = "sk-fake-openai-key";

const DEFAULT_BEHAVIOUR: FakeOpenAiBehaviour = {
	apiKey: FAKE_OPENAI_KEY,
	latencyMs: 3_000,
	retryAfterSeconds: 2,
	holdsStreams: false,
	flagsImages: false,
	chatAnswer: "rewrite",
};

/** The routes this fake answers: a generation from a prompt, and an edit of an image. */
const ENDPOINT_PATHS: Record<string, FakeOpenAiEndpoint> = {
	"/v1/images/generations": "generate",
	"/v1/images/edits": "edit",
};

/** An edit's form fields that are numbers (every multipart field arrives as text). */
const NUMBER_FIELDS = new Set(["n", "partial_images", "output_compression"]);

const STANDARD_SIZES = ["1024x1024", "1536x1024", "1024x1536", "auto"];
const STANDARD_MODELS = [
	"gpt-image-1",
	"gpt-image-1-mini",
	"gpt-image-1.5",
	"chatgpt-image-latest",
];
const RETIRED_MODELS = ["dall-e-2", "dall-e-3"];

const RequestSchema = z.object({
	model: z.string(),
	prompt: z.string().min(1).max(32_000),
	n: z.number().int().min(1).max(10).optional(),
	size: z.string().optional(),
	quality: z.enum(["low", "medium", "high", "auto"]).optional(),
	output_format: z.enum(["png", "jpeg", "webp"]).optional(),
	output_compression: z.number().int().min(0).max(100).optional(),
	background: z.enum(["transparent", "opaque", "auto"]).optional(),
	moderation: z.enum(["low", "auto"]).optional(),
	user: z.string().optional(),
	stream: z.boolean().optional(),
	partial_images: z.number().int().min(0).max(3).optional(),
});

/**
 * A local stand-in for OpenAI's images API (PROVIDERS.md section 2): `POST /v1/images/generations`
 * checks the model, `n` and the size the way gpt-image models do, waits `latencyMs`, and answers
 * `data[].b64_json` images of the requested size, or one of OpenAI's error bodies.
 * `POST /v1/images/edits` takes the same fields as multipart/form-data with the `image` file, and
 * answers images made from that image (resized to the size), streamed as `image_edit.*` events.
 * `POST /v1/moderations` judges an image (openai-moderations.ts), flagging it when told to.
 * `POST /v1/chat/completions` rewrites the last user message, or fails as told (openai-chat.ts).
 */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
	let behaviour: FakeOpenAiBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
	const failures = createFailurePlan<FakeOpenAiEndpoint, FakeOpenAiFailure>();
	const receivedMasks: FakeOpenAiMask[] = [];
	const held = new Set<HeldStream>();

	const server = await startFakeServer({
		...(options.port === undefined ? {} : { port: options.port }),
		handle: (request) => handle(request),
	});

	async function handle(request: FakeRequest): Promise<FakeReply> {
		if (request.method === "POST" && request.path === "/v1/moderations") {
			if (request.authorization !== `Bearer ${behaviour.apiKey}`) {
				return openAiError(401, "Incorrect API key provided.", "invalid_request_error", null, null);
			}
			return answerModeration(request.body, behaviour.flagsImages);
		}
		if (request.method === "POST" && request.path === "/v1/chat/completions") {
			if (request.authorization !== `Bearer ${behaviour.apiKey}`) {
				return openAiError(401, "Incorrect API key provided.", "invalid_request_error", null, null);
			}
			return answerChatCompletion(request.body, behaviour.chatAnswer);
		}
		const endpoint = ENDPOINT_PATHS[request.path];
		if (request.method !== "POST" || endpoint === undefined) {
			return openAiError(
				404,
				`Invalid URL (${request.method} ${request.path})`,
				"invalid_request_error",
				null,
				null,
			);
		}
		if (request.authorization !== `Bearer ${behaviour.apiKey}`) {
			return openAiError(
				401,
				"Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.",
				"invalid_request_error",
				null,
				"invalid_api_key",
			);
		}
		const failure = failures.take(endpoint);
		if (failure === "hang") return { kind: "hang" };
		if (failure === "drop") return { kind: "drop" };
		const edit = endpoint === "edit" ? await readEditForm(request) : undefined;
		if (edit && "problem" in edit) return edit.problem;
		const body = edit ? edit.body : request.body;
		const isStreamed = RequestSchema.safeParse(body).data?.stream === true;
		const eventPrefix = edit ? "image_edit" : "image_generation";
		if (isStreamed && !failure) {
			const answer = await generate(body, edit?.image, edit?.masked);
			if (answer.kind !== "json" || answer.status !== 200) return answer;
			return streamAnswer(body, answer.body, eventPrefix);
		}
		if (behaviour.latencyMs > 0)
			await new Promise((resolve) => setTimeout(resolve, behaviour.latencyMs));
		if (failure) return answerFailure(failure);
		return generate(body, edit?.image, edit?.masked);
	}

	/**
	 * An edit's multipart form (`image` file, then the same fields as a generation, as text) read
	 * into the generation's body and its image; or OpenAI's answer to a form it refuses.
	 */
	async function readEditForm(
		request: FakeRequest,
	): Promise<
		{ body: Record<string, unknown>; image: Uint8Array; masked: boolean } | { problem: FakeReply }
	> {
		const form = await readMultipart(request);
		if (!form) {
			return {
				problem: openAiError(
					400,
					`Invalid Content-Type header (${request.headers["content-type"] ?? "none"}), expected multipart/form-data.`,
					"invalid_request_error",
					null,
					null,
				),
			};
		}
		const file = form.get("image");
		if (!(file instanceof Blob)) {
			return {
				problem: openAiError(
					400,
					"Missing required parameter: 'image'.",
					"invalid_request_error",
					"image",
					"missing_required_parameter",
				),
			};
		}
		const image = new Uint8Array(await file.arrayBuffer());
		const format = await sharp(image)
			.metadata()
			.then((metadata) => metadata.format)
			.catch(() => undefined);
		if (format !== "png" && format !== "jpeg" && format !== "webp") {
			return {
				problem: openAiError(
					400,
					"Invalid image file or mode for image 1, please check your image file.",
					"invalid_request_error",
					"image",
					"invalid_image_file",
				),
			};
		}
		const maskFile = form.get("mask");
		if (maskFile instanceof Blob) {
			const problem = await readMask(new Uint8Array(await maskFile.arrayBuffer()), image);
			if (problem) return { problem };
		}
		const body: Record<string, unknown> = {};
		for (const [name, value] of form.entries()) {
			if (name === "image" || name === "mask" || typeof value !== "string") continue;
			body[name] = NUMBER_FIELDS.has(name)
				? Number(value)
				: value === "true" || value === "false"
					? value === "true"
					: value;
		}
		return { body, image, masked: maskFile instanceof Blob };
	}

	/** Checks a mask as OpenAI does and keeps it; OpenAI's answer to one it refuses. */
	async function readMask(mask: Uint8Array, image: Uint8Array): Promise<FakeReply | undefined> {
		const [maskInfo, imageInfo] = await Promise.all([
			sharp(mask)
				.metadata()
				.catch(() => undefined),
			sharp(image).metadata(),
		]);
		const refuse = (message: string) =>
			openAiError(400, message, "invalid_request_error", "mask", "invalid_image_file");
		if (maskInfo?.format !== "png" || !maskInfo.hasAlpha) {
			return refuse("Invalid mask image: it must be a PNG with an alpha channel.");
		}
		if (maskInfo.width !== imageInfo.width || maskInfo.height !== imageInfo.height) {
			return refuse("Invalid mask image: mask size does not match image size.");
		}
		const alpha = await sharp(mask).extractChannel(3).raw().toBuffer();
		receivedMasks.push({ width: maskInfo.width, height: maskInfo.height, alpha });
		return undefined;
	}

	/**
	 * The answer as server-sent events, as GPT image models stream it: `partial_images` partial
	 * frames of each image spread over the latency (`image_generation.partial_image`), then each
	 * image (`image_generation.completed`). A held stream sends each when the test says.
	 */
	function streamAnswer(body: unknown, answer: unknown, eventPrefix: string): FakeReply {
		const partials = RequestSchema.safeParse(body).data?.partial_images ?? 0;
		const images = z
			.object({ data: z.array(z.object({ b64_json: z.string() })) })
			.parse(answer).data;
		const event = (type: string, data: Record<string, unknown>) =>
			`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
		const partialFrames = (index: number) =>
			images.map((image) =>
				event(`${eventPrefix}.partial_image`, {
					b64_json: image.b64_json,
					partial_image_index: index,
					created_at: Math.floor(Date.now() / 1000),
				}),
			);
		const completedImages = () =>
			images.map((image) =>
				event(`${eventPrefix}.completed`, {
					b64_json: image.b64_json,
					created_at: Math.floor(Date.now() / 1000),
					usage: { input_tokens: 50, output_tokens: 4160, total_tokens: 4210 },
				}),
			);
		if (behaviour.holdsStreams) {
			const stream = createHeldStream(partials);
			held.add(stream);
			async function* heldChunks() {
				try {
					for (;;) {
						const order = await stream.next();
						const isFinished = order.kind === "finish";
						const frames = isFinished ? completedImages() : partialFrames(order.index);
						try {
							yield* frames;
						} finally {
							// Written (or the client went away): the test's call may go on.
							order.done();
						}
						if (isFinished) return;
					}
				} finally {
					held.delete(stream);
				}
			}
			return {
				kind: "stream",
				status: 200,
				contentType: "text/event-stream",
				chunks: heldChunks(),
			};
		}
		const latencyMs = behaviour.latencyMs;
		async function* chunks() {
			for (let index = 0; index < partials; index++) {
				await new Promise((resolve) => setTimeout(resolve, latencyMs / (partials + 1)));
				yield* partialFrames(index);
			}
			await new Promise((resolve) => setTimeout(resolve, latencyMs / (partials + 1)));
			yield* completedImages();
		}
		return { kind: "stream", status: 200, contentType: "text/event-stream", chunks: chunks() };
	}

	/**
	 * A generation's answer; an edit's (`source` set) has images made from its image. A masked
	 * edit changes every pixel (its colours negated), inside the mask and out, as GPT image
	 * models are measured to do.
	 */
	async function generate(
		body: unknown,
		source?: Uint8Array,
		isMasked = false,
	): Promise<FakeReply> {
		const parsed = RequestSchema.safeParse(body);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const param = issue?.path.join(".") || null;
			return openAiError(
				400,
				`Invalid value for '${param}': ${issue?.message ?? "invalid"}`,
				"invalid_request_error",
				param,
				null,
			);
		}
		const input = parsed.data;
		if (RETIRED_MODELS.includes(input.model) || !isKnownModel(input.model)) {
			return openAiError(
				404,
				`The model '${input.model}' does not exist or you do not have access to it.`,
				"invalid_request_error",
				null,
				"model_not_found",
			);
		}
		const size = input.size ?? "auto";
		const sizeProblem = checkSize(input.model, size);
		if (sizeProblem) return openAiError(400, sizeProblem, "invalid_request_error", "size", null);
		if (input.prompt.toLowerCase().includes(FAKE_REFUSED_WORD)) return answerFailure("moderation");
		const [width = 1024, height = 1024] =
			size === "auto" ? [1024, 1024] : size.split("x").map(Number);
		const format = input.output_format ?? "png";
		const seed = randomBytes(8).toString("hex");
		const edited =
			source && isMasked ? new Uint8Array(await sharp(source).negate().png().toBuffer()) : source;
		const images = await Promise.all(
			Array.from({ length: input.n ?? 1 }, (_, index) =>
				edited
					? renderFromImage({ source: edited, width, height, format })
					: renderFakeImage({ width, height, seed, index, format }),
			),
		);
		return jsonReply(
			200,
			{
				created: Math.floor(Date.now() / 1000),
				background: "opaque",
				output_format: format,
				quality: input.quality ?? "auto",
				size: `${width}x${height}`,
				data: images.map((image) => ({ b64_json: Buffer.from(image.data).toString("base64") })),
				usage: {
					input_tokens: 50,
					input_tokens_details: { image_tokens: 0, text_tokens: 50 },
					output_tokens: 4160 * images.length,
					total_tokens: 50 + 4160 * images.length,
				},
			},
			rateLimitHeaders(1),
		);
	}

	function answerFailure(kind: Exclude<FakeOpenAiFailure, "hang" | "drop">): FakeReply {
		switch (kind) {
			case "moderation":
				return openAiError(
					400,
					"Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_123.",
					"image_generation_user_error",
					null,
					"moderation_blocked",
				);
			case "invalid":
				return openAiError(
					400,
					"Invalid value: '1792x1024'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.",
					"invalid_request_error",
					"size",
					"invalid_value",
				);
			case "org-unverified":
				return openAiError(
					403,
					"Your organization must be verified to use the model `gpt-image-1`.",
					"invalid_request_error",
					null,
					null,
				);
			case "rate-limited":
				return openAiError(
					429,
					"Rate limit reached for gpt-image-1 on images per minute (IPM): Limit 5, Used 5, Requested 1.",
					"requests",
					null,
					"rate_limit_exceeded",
					{
						...rateLimitHeaders(0),
						"retry-after": String(behaviour.retryAfterSeconds),
						"retry-after-ms": String(behaviour.retryAfterSeconds * 1000),
					},
				);
			case "insufficient-quota":
				return openAiError(
					429,
					"You exceeded your current quota, please check your plan and billing details.",
					"insufficient_quota",
					null,
					"insufficient_quota",
				);
			case "server-error":
				return openAiError(
					500,
					"The server had an error while processing your request. Sorry about that!",
					"server_error",
					null,
					null,
				);
			case "no-retry":
				return openAiError(503, "The engine is currently overloaded.", "server_error", null, null, {
					"x-should-retry": "false",
				});
			case "bad-json":
				return textReply(200, "<html><body>502 Bad Gateway</body></html>", "text/html");
			case "malformed":
				return jsonReply(200, { created: 1, data: "not a list" });
			case "not-image":
				return jsonReply(200, {
					created: 1,
					data: [{ b64_json: Buffer.from("hello, not an image").toString("base64") }],
				});
		}
	}

	return {
		origin: server.origin,
		baseUrl: `${server.origin}/v1`,
		requests: server.requests,
		generateCount: () =>
			server.requests().filter((request) => request.path === "/v1/images/generations").length,
		masks: () => receivedMasks,
		editCount: () =>
			server.requests().filter((request) => request.path === "/v1/images/edits").length,
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		fail: (endpoint, kind, timing) => failures.fail(endpoint, kind, timing),
		clearFailures: () => failures.clear(),
		heldStreams: () => held.size,
		async sendPartialImage() {
			const sent = [...held].flatMap((stream) => stream.sendPartial() ?? []);
			await Promise.all(sent);
			return sent.length;
		},
		async finishStreams() {
			await Promise.all([...held].map((stream) => stream.finish()));
		},
		stop: server.stop,
	};
}

/** What a held stream is told to send next; `done` once its events are written. */
type StreamOrder = ({ kind: "partial"; index: number } | { kind: "finish" }) & {
	done: () => void;
};

type HeldStream = {
	/** The next order, once the test gives one. */
	next(): Promise<StreamOrder>;
	/** Orders the next partial frame; undefined when all `partial_images` were sent. */
	sendPartial(): Promise<void> | undefined;
	finish(): Promise<void>;
};

/** A streamed answer that sends its partial frames and its images when the test orders them. */
function createHeldStream(partials: number): HeldStream {
	const orders: StreamOrder[] = [];
	let wake: (() => void) | undefined;
	let partialsOrdered = 0;
	let isFinishOrdered = false;
	function order(kind: { kind: "partial"; index: number } | { kind: "finish" }) {
		return new Promise<void>((resolve) => {
			orders.push({ ...kind, done: resolve });
			wake?.();
		});
	}
	return {
		async next() {
			for (;;) {
				const first = orders.shift();
				if (first) return first;
				await new Promise<void>((resolve) => {
					wake = resolve;
				});
				wake = undefined;
			}
		},
		sendPartial() {
			if (isFinishOrdered || partialsOrdered >= partials) return undefined;
			partialsOrdered += 1;
			return order({ kind: "partial", index: partialsOrdered - 1 });
		},
		finish() {
			if (isFinishOrdered) return Promise.resolve();
			isFinishOrdered = true;
			return order({ kind: "finish" });
		},
	};
}

function isKnownModel(model: string): boolean {
	return STANDARD_MODELS.includes(model) || model.startsWith("gpt-image-2");
}

// gpt-image-1 family: three sizes and auto. gpt-image-2: any WxH with sides divisible by 16, a
// ratio between 1:3 and 3:1, at most 3840x2160 pixels.
function checkSize(model: string, size: string): string | undefined {
	if (!model.startsWith("gpt-image-2")) {
		return STANDARD_SIZES.includes(size)
			? undefined
			: `Invalid value: '${size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`;
	}
	if (size === "auto" || STANDARD_SIZES.includes(size)) return undefined;
	const match = /^(\d+)x(\d+)$/.exec(size);
	const width = Number(match?.[1] ?? 0);
	const height = Number(match?.[2] ?? 0);
	const ratio = width / height;
	if (
		!match ||
		width % 16 !== 0 ||
		height % 16 !== 0 ||
		ratio > 3 ||
		ratio < 1 / 3 ||
		width * height > 3840 * 2160
	) {
		return `Invalid size '${size}': both sides must be divisible by 16, the ratio between 1:3 and 3:1, and at most 3840x2160 pixels.`;
	}
	return undefined;
}

function rateLimitHeaders(remaining: number): Record<string, string> {
	return {
		"x-ratelimit-limit-requests": "5",
		"x-ratelimit-remaining-requests": String(remaining),
		"x-ratelimit-reset-requests": "12s",
		"x-request-id": `req_${randomBytes(8).toString("hex")}`,
	};
}

function openAiError(
	status: number,
	message: string,
	type: string,
	param: string | null,
	code: string | null,
	headers: Record<string, string> = {},
): FakeReply {
	return jsonReply(
		status,
		{ error: { message, type, param, code } },
		{
			"x-request-id": `req_${randomBytes(8).toString("hex")}`,
			...headers,
		},
	);
}
