import { createHash, randomBytes } from "node:crypto";
import {
	createServer,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type ServerResponse,
} from "node:http";
import sharp from "sharp";
import { z } from "zod";

/** How the service answers `POST /generate`. */
type FakeStartBehaviour =
	/** `{ success: true, id, pollingUrl }` */
	| "ok"
	/** `{ id, status: "processing", pollingUrl }`, the shape without `success` */
	| "processing"
	/** HTTP 500 with `{ success: false, error }` */
	| "server-error"
	/** HTTP 200 with `{ success: false, error }` */
	| "rejected"
	/** HTTP 429 with Retry-After */
	| "rate-limited"
	/** HTTP 200 with a body that is not JSON */
	| "bad-json"
	/** `{ success: true, id }` without a polling URL */
	| "no-polling-url"
	/** never answers */
	| "hang";

/** How the service answers `GET /jobs/<id>` once the request is authorised and the job exists. */
type FakePollBehaviour =
	/** `processing` until `latencyMs` has passed since the start, then `completed` with results */
	| "ok"
	/** `{ status: "failed", message }` */
	| "failed"
	/** `{ status: "error", message }` */
	| "error"
	/** `completed` with an empty results array */
	| "completed-empty"
	/** never answers */
	| "hang"
	/** HTTP 200 with a body that is not JSON */
	| "bad-json"
	/** HTTP 200 with JSON that is not an object */
	| "not-object"
	/** HTTP 429 with Retry-After */
	| "rate-limited"
	/** HTTP 502 */
	| "server-error";

/** How a completed job lists its images. */
type FakeResultsFormat =
	| "strings"
	| "url-objects"
	| "src-objects"
	/** strings relative to the polling URL, such as `/images/<job>/0.png` */
	| "relative";

type FakeHttpImageServiceBehaviour = {
	/** Time from the start of a job until its polls answer `completed`. */
	latencyMs: number;
	/** Images per completed job. */
	imageCount: number;
	start: FakeStartBehaviour;
	/** The `error` field of a refused start. */
	startError: string | { message?: string; code?: string };
	poll: FakePollBehaviour;
	/** The `message` of a failed poll; null sends `message: null`. */
	pollMessage: string | null;
	results: FakeResultsFormat;
	/** When true, image URLs in results answer 404 (an expired CDN link). */
	imagesMissing: boolean;
	/** How long each image URL takes to answer (a slow CDN), so a run spends time storing images. */
	imageLatencyMs: number;
	/** When set, start and polls need `Authorization: Bearer <apiKey>` and answer 401 without it. */
	apiKey: string | null;
	retryAfterSeconds: number;
	/** Polling URLs point at this origin instead (another fake service, to test credentials). */
	pollingOrigin: string | null;
	/** Whether the start answer gives an absolute polling URL or one relative to the start URL. */
	pollingUrlStyle: "absolute" | "relative";
};

/** One request the service received, for tests to assert on what the client sent. */
type FakeHttpRequest = {
	method: string;
	path: string;
	authorization: string | undefined;
	body: unknown;
};

export type FakeHttpImageService = {
	/** The start URL, `http://127.0.0.1:<port>/generate`. */
	url: string;
	origin: string;
	startCount(): number;
	pollCount(): number;
	requests(): readonly FakeHttpRequest[];
	/** The images (and masks) starts carried, decoded from their `data:` URLs or fetched, in order. */
	receivedImages(): readonly FakeReceivedImage[];
	/** The URLs starts gave for their images, as the service fetched them, with each answer's status. */
	fetchedUrls(): readonly { url: string; status: number }[];
	setBehaviour(changes: Partial<FakeHttpImageServiceBehaviour>): void;
	stop(): Promise<void>;
};

/** A start's `image` and `mask`, decoded: the mask one grey byte a pixel (255 = change). */
export type FakeReceivedImage = {
	image: { data: Buffer; width: number; height: number };
	mask: { grey: Buffer; width: number; height: number } | null;
};

export type FakeHttpImageServiceOptions = {
	/** 0 (the default) picks a free port. */
	port?: number;
	latencyMs?: number;
	behaviour?: Partial<FakeHttpImageServiceBehaviour>;
};

const DEFAULT_BEHAVIOUR: FakeHttpImageServiceBehaviour = {
	latencyMs: 3_000,
	imageCount: 4,
	start: "ok",
	startError: "Prompt rejected by the moderation filter",
	poll: "ok",
	pollMessage: "The image service ran out of GPU memory",
	results: "strings",
	imagesMissing: false,
	imageLatencyMs: 0,
	apiKey: null,
	retryAfterSeconds: 2,
	pollingOrigin: null,
	pollingUrlStyle: "absolute",
};

const StartBodySchema = z.object({
	prompt: z.string().trim().min(1, "prompt is required"),
	aspectRatio: z.string().regex(/^--ar \d+:\d+$/, "aspectRatio must look like --ar 16:9"),
	image: z.string().optional(),
	mask: z.string().optional(),
});

const DATA_URL_PATTERN = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/=]+)$/;

// Job ids carry their start time, so any instance (another origin, or one restarted on the same
// port) can answer for a job, like a real service backed by a database.
const JOB_ID_PATTERN = /^job_(\d+)_[0-9a-f]{8}$/;
// Room for an image and a mask as data: URLs.
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
const IMAGE_SIZE = 16;

/**
 * A local stand-in for a Midjourney-style service speaking the start-then-poll contract:
 * `POST /generate` `{ prompt, aspectRatio }` → `{ success, id, pollingUrl }`, then
 * `GET /jobs/<id>` → `{ status, results, message }`, with small real PNGs at
 * `/images/<id>/<n>.png`. Knobs in `setBehaviour` reproduce each failure a real service shows.
 * A start may carry `image` and `mask` as `data:` URLs (refused with 400 when not an image, or a
 * mask of another size than the image); its images are then the image with every pixel
 * repainted (its colours inverted), the kept ones too, as GPT image models do.
 */
export async function startFakeHttpImageService(
	options: FakeHttpImageServiceOptions = {},
): Promise<FakeHttpImageService> {
	let behaviour: FakeHttpImageServiceBehaviour = {
		...DEFAULT_BEHAVIOUR,
		...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
		...options.behaviour,
	};
	const requests: FakeHttpRequest[] = [];
	const received: FakeReceivedImage[] = [];
	const fetchedUrls: { url: string; status: number }[] = [];
	// The image each job started from, by its id.
	const jobImages = new Map<string, Buffer>();
	let origin = "";

	const server = createServer((request, response) => {
		handleRequest(request, response).catch((error: unknown) => {
			if (!response.headersSent) {
				sendReply(response, jsonReply(500, { success: false, error: String(error) }));
			} else {
				response.destroy();
			}
		});
	});

	async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? "/", origin).pathname;
		const method = request.method ?? "GET";
		const body = method === "POST" ? await readJsonBody(request) : undefined;
		requests.push({ method, path, authorization: request.headers.authorization, body });
		const current = behaviour;

		const imageMatch = /^\/images\/([^/]+)\/(\d+)\.png$/.exec(path);
		if (method === "GET" && imageMatch) {
			const [, jobId = "", index = "0"] = imageMatch;
			return serveImage(response, current, jobId, Number(index), jobImages.get(jobId));
		}
		const isStart = method === "POST" && path === "/generate";
		const pollMatch = /^\/jobs\/([^/]+)$/.exec(path);
		if (!isStart && !(method === "GET" && pollMatch)) {
			return sendReply(response, jsonReply(404, { success: false, error: "Not found" }));
		}
		if (current.apiKey !== null && request.headers.authorization !== `Bearer ${current.apiKey}`) {
			return sendReply(
				response,
				jsonReply(401, {
					success: false,
					error: { message: "Invalid or missing API key", code: "UNAUTHORIZED" },
				}),
			);
		}
		const reply = isStart
			? await answerStart(current, body)
			: answerPoll(current, pollMatch?.[1] ?? "");
		// A hanging answer is simply never written; stop() closes its connection.
		if (reply !== "hang") sendReply(response, reply);
	}

	/** An image field's bytes: decoded from a `data:` URL, or fetched from an http(s) URL. */
	async function readImageBytes(text: string): Promise<Buffer | undefined> {
		const match = DATA_URL_PATTERN.exec(text);
		if (match) return Buffer.from(match[2] ?? "", "base64");
		if (!/^https?:\/\//.test(text)) return undefined;
		const answer = await fetch(text).catch(() => undefined);
		fetchedUrls.push({ url: text, status: answer?.status ?? 0 });
		if (!answer?.ok) return undefined;
		return Buffer.from(await answer.arrayBuffer());
	}

	/** The start's image and mask decoded, or why they are refused. */
	async function readImages(input: {
		image?: string | undefined;
		mask?: string | undefined;
	}): Promise<FakeReceivedImage | string | undefined> {
		if (input.image === undefined) {
			return input.mask === undefined ? undefined : "mask needs an image";
		}
		const decode = async (text: string) => {
			const data = await readImageBytes(text);
			if (!data) return undefined;
			const { data: pixels, info } = await sharp(data)
				.raw()
				.toBuffer({ resolveWithObject: true })
				.catch(() => ({ data: undefined, info: undefined }));
			return pixels && info ? { data, pixels, info } : undefined;
		};
		const image = await decode(input.image);
		if (!image) return "image must be a data: URL or a fetchable URL of a PNG, JPEG or WebP";
		const size = { width: image.info.width, height: image.info.height };
		if (input.mask === undefined) return { image: { data: image.data, ...size }, mask: null };
		const mask = await decode(input.mask);
		if (!mask) return "mask must be a data: URL or a fetchable URL of a PNG";
		if (mask.info.width !== size.width || mask.info.height !== size.height) {
			return "mask must be the image's size";
		}
		const grey = await sharp(mask.data).extractChannel(0).raw().toBuffer();
		return { image: { data: image.data, ...size }, mask: { grey, ...size } };
	}

	async function answerStart(
		current: FakeHttpImageServiceBehaviour,
		body: unknown,
	): Promise<FakeReply> {
		switch (current.start) {
			case "hang":
				return "hang";
			case "server-error":
				return jsonReply(500, { success: false, error: current.startError });
			case "rejected":
				return jsonReply(200, { success: false, error: current.startError });
			case "rate-limited":
				return jsonReply(
					429,
					{ success: false, error: "Too many requests" },
					{ "retry-after": String(current.retryAfterSeconds) },
				);
			case "bad-json":
				return textReply(200, "<html>502 Bad Gateway</html>", "application/json");
		}
		const input = StartBodySchema.safeParse(body);
		if (!input.success) {
			const message = input.error.issues.map((issue) => issue.message).join("; ");
			return jsonReply(400, {
				success: false,
				error: { message, code: "INVALID_INPUT" },
			});
		}
		const images = await readImages(input.data);
		if (typeof images === "string") {
			return jsonReply(400, { success: false, error: { message: images, code: "INVALID_INPUT" } });
		}
		const id = `job_${Date.now()}_${randomBytes(4).toString("hex")}`;
		if (images) {
			received.push(images);
			jobImages.set(id, images.image.data);
		}
		const jobPath = `/jobs/${id}`;
		const pollingUrl =
			current.pollingUrlStyle === "relative"
				? jobPath
				: `${current.pollingOrigin ?? origin}${jobPath}`;
		if (current.start === "processing") {
			return jsonReply(200, { id, status: "processing", pollingUrl });
		}
		if (current.start === "no-polling-url") return jsonReply(200, { success: true, id });
		return jsonReply(200, { success: true, id, pollingUrl });
	}

	function answerPoll(current: FakeHttpImageServiceBehaviour, jobId: string): FakeReply {
		const startedAt = Number(JOB_ID_PATTERN.exec(jobId)?.[1] ?? Number.NaN);
		if (Number.isNaN(startedAt)) {
			return jsonReply(404, { status: "error", message: "Job not found" });
		}
		switch (current.poll) {
			case "hang":
				return "hang";
			case "bad-json":
				return textReply(200, '{"status": "compl', "application/json");
			case "not-object":
				return jsonReply(200, ["completed"]);
			case "rate-limited":
				return jsonReply(
					429,
					{ error: "Too many requests" },
					{ "retry-after": String(current.retryAfterSeconds) },
				);
			case "server-error":
				return textReply(502, "Bad Gateway", "text/plain");
			case "failed":
			case "error":
				return jsonReply(200, {
					status: current.poll,
					results: [],
					message: current.pollMessage,
				});
			case "completed-empty":
				return jsonReply(200, { status: "completed", results: [], message: null });
		}
		if (Date.now() - startedAt < current.latencyMs) {
			return jsonReply(200, { status: "processing", results: [], message: null });
		}
		const results = Array.from({ length: current.imageCount }, (_, index) =>
			formatResult(current.results, origin, `/images/${jobId}/${index}.png`),
		);
		return jsonReply(200, { status: "completed", results, message: null });
	}

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === "string") {
		throw new Error("The fake image service did not get a TCP port");
	}
	origin = `http://127.0.0.1:${address.port}`;
	let stopped: Promise<void> | undefined;

	return {
		url: `${origin}/generate`,
		origin,
		startCount: () =>
			requests.filter((request) => request.method === "POST" && request.path === "/generate")
				.length,
		pollCount: () => requests.filter((request) => request.path.startsWith("/jobs/")).length,
		requests: () => [...requests],
		receivedImages: () => [...received],
		fetchedUrls: () => [...fetchedUrls],
		setBehaviour(changes) {
			behaviour = { ...behaviour, ...changes };
		},
		stop() {
			stopped ??= new Promise<void>((resolve) => {
				// Hanging requests never end by themselves; close them so the port is freed now.
				server.closeAllConnections();
				server.close(() => resolve());
			});
			return stopped;
		},
	};
}

function formatResult(format: FakeResultsFormat, origin: string, path: string): unknown {
	switch (format) {
		case "strings":
			return `${origin}${path}`;
		case "url-objects":
			return { url: `${origin}${path}`, width: IMAGE_SIZE, height: IMAGE_SIZE };
		case "src-objects":
			return { src: `${origin}${path}` };
		case "relative":
			return path;
	}
}

async function serveImage(
	response: ServerResponse,
	current: FakeHttpImageServiceBehaviour,
	jobId: string,
	index: number,
	source: Buffer | undefined,
): Promise<void> {
	if (current.imagesMissing || !JOB_ID_PATTERN.test(jobId) || index >= current.imageCount) {
		return sendReply(response, textReply(404, "Image not found or expired", "text/plain"));
	}
	if (current.imageLatencyMs > 0) {
		await new Promise((resolve) => setTimeout(resolve, current.imageLatencyMs));
	}
	// Made from an image: every pixel of it repainted, at its size.
	const png = source
		? await sharp(source).removeAlpha().negate().png().toBuffer()
		: await renderImage(jobId, index);
	response.writeHead(200, { "content-type": "image/png", "content-length": png.byteLength });
	response.end(png);
}

// A flat colour per job and index, a quarter turn of hue apart, so the images of a job differ.
async function renderImage(jobId: string, index: number): Promise<Buffer> {
	const hue = (createHash("sha256").update(jobId).digest().readUInt16BE(0) + index * 90) % 360;
	return sharp({
		create: {
			width: IMAGE_SIZE,
			height: IMAGE_SIZE,
			channels: 3,
			background: `hsl(${hue}, 70%, 50%)`,
		},
	})
		.png()
		.toBuffer();
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
		size += buffer.byteLength;
		if (size > MAX_REQUEST_BYTES) return undefined;
		chunks.push(buffer);
	}
	try {
		return JSON.parse(Buffer.concat(chunks).toString("utf8"));
	} catch {
		return undefined;
	}
}

type HttpReply = {
	status: number;
	text: string;
	contentType: string;
	headers: OutgoingHttpHeaders;
};
type FakeReply = HttpReply | "hang";

function jsonReply(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): HttpReply {
	return { status, text: JSON.stringify(body), contentType: "application/json", headers };
}

function textReply(status: number, text: string, contentType: string): HttpReply {
	return { status, text, contentType, headers: {} };
}

function sendReply(response: ServerResponse, reply: HttpReply): void {
	response.writeHead(reply.status, { ...reply.headers, "content-type": reply.contentType });
	response.end(reply.text);
}
