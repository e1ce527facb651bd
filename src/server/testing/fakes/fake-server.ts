import { createHash } from "node:crypto";
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type ServerResponse,
} from "node:http";
import type { Duplex } from "node:stream";
import sharp from "sharp";

/** Prompts containing this word are refused by every fake's moderation, to try that path by hand. */
export const FAKE_REFUSED_WORD = "forbidden";

/** One request a fake received, for tests to assert on what the client sent. */
export type FakeRequest = {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	authorization: string | undefined;
	/** The parsed JSON body; undefined when there was none or it was not JSON. */
	body: unknown;
	/** The body's bytes as sent (a multipart upload's, say); empty when there was none. */
	rawBody: Uint8Array;
	/** Set when the client went away before the answer was written (an aborted call). */
	isAbandoned: boolean;
};

type ReplyHeaders = { headers?: OutgoingHttpHeaders };

export type FakeReply =
	| ({ kind: "json"; status: number; body: unknown } & ReplyHeaders)
	| ({ kind: "text"; status: number; text: string; contentType: string } & ReplyHeaders)
	| ({ kind: "bytes"; status: number; data: Uint8Array; contentType: string } & ReplyHeaders)
	/** Writes each chunk as it comes (server-sent events), then ends. */
	| ({
			kind: "stream";
			status: number;
			contentType: string;
			chunks: AsyncIterable<string>;
	  } & ReplyHeaders)
	/** Never answers (a hung upstream); `stop()` closes the connection. */
	| { kind: "hang" }
	/** Closes the connection without an answer (a crashed upstream). */
	| { kind: "drop" };

type FakeServer = {
	origin: string;
	requests(): readonly FakeRequest[];
	stop(): Promise<void>;
};

type FakeServerOptions = {
	/** 0 (the default) picks a free port. */
	port?: number;
	/** Milliseconds to wait before handling a request that is not a file download. */
	readDelayMs?: (request: FakeRequest) => number;
	handle: (request: FakeRequest, origin: string) => Promise<FakeReply> | FakeReply;
	/** Takes a WebSocket upgrade (ComfyUI's `/ws`); without it upgrades are refused. */
	upgrade?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
};

// Room for a reference image of 20 MB sent as a data URI (a third more in base64).
const MAX_REQUEST_BYTES = 40 * 1024 * 1024;

/**
 * A small HTTP server on 127.0.0.1 for the vendor fakes: records every request, parses JSON
 * bodies, and writes the fake's replies, including hanging and dropped connections.
 */
export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
	const requests: FakeRequest[] = [];
	let origin = "";

	const server = createServer((request, response) => {
		handleRequest(request, response).catch((error: unknown) => {
			if (response.headersSent) {
				response.destroy();
				return;
			}
			writeReply(response, jsonReply(500, { detail: `fake server bug: ${String(error)}` }));
		});
	});

	async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? "/", origin);
		const method = request.method ?? "GET";
		const rawBody = method === "GET" ? new Uint8Array(0) : await readBody(request);
		const body = parseJson(rawBody);
		const authorization = request.headers.authorization;
		const recorded: FakeRequest = {
			method,
			path: url.pathname,
			query: url.searchParams,
			headers: request.headers,
			authorization,
			body,
			rawBody,
			isAbandoned: false,
		};
		requests.push(recorded);
		response.once("close", () => {
			if (!response.writableFinished) recorded.isAbandoned = true;
		});
		const delay = options.readDelayMs?.(recorded) ?? 0;
		if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
		const reply = await options.handle(recorded, origin);
		if (reply.kind === "hang") return;
		if (reply.kind === "drop") {
			response.destroy();
			return;
		}
		if (reply.kind === "stream") {
			response.writeHead(reply.status, { ...reply.headers, "content-type": reply.contentType });
			for await (const chunk of reply.chunks) {
				if (response.destroyed) return;
				response.write(chunk);
			}
			response.end();
			return;
		}
		writeReply(response, reply);
	}

	server.on("upgrade", (request, socket, head) => {
		if (options.upgrade) options.upgrade(request, socket, head);
		else socket.destroy();
	});

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === "string") {
		throw new Error("The fake server did not get a TCP port");
	}
	origin = `http://127.0.0.1:${address.port}`;
	let stopped: Promise<void> | undefined;

	return {
		origin,
		requests: () => [...requests],
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

export function jsonReply(
	status: number,
	body: unknown,
	headers: OutgoingHttpHeaders = {},
): FakeReply {
	return { kind: "json", status, body, headers };
}

export function textReply(
	status: number,
	text: string,
	contentType = "text/plain",
	headers: OutgoingHttpHeaders = {},
): FakeReply {
	return { kind: "text", status, text, contentType, headers };
}

function writeReply(response: ServerResponse, reply: FakeReply): void {
	if (reply.kind === "hang" || reply.kind === "drop" || reply.kind === "stream") return;
	const headers = reply.headers ?? {};
	if (reply.kind === "bytes") {
		response.writeHead(reply.status, {
			...headers,
			"content-type": reply.contentType,
			"content-length": reply.data.byteLength,
		});
		response.end(reply.data);
		return;
	}
	const text = reply.kind === "json" ? JSON.stringify(reply.body) : reply.text;
	const contentType = reply.kind === "json" ? "application/json" : reply.contentType;
	response.writeHead(reply.status, { ...headers, "content-type": contentType });
	response.end(text);
}

async function readBody(request: IncomingMessage): Promise<Uint8Array> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
		size += buffer.byteLength;
		if (size > MAX_REQUEST_BYTES) return new Uint8Array(0);
		chunks.push(buffer);
	}
	return new Uint8Array(Buffer.concat(chunks));
}

function parseJson(bytes: Uint8Array): unknown {
	if (bytes.byteLength === 0) return undefined;
	try {
		return JSON.parse(Buffer.from(bytes).toString("utf8"));
	} catch {
		return undefined;
	}
}

/**
 * A multipart/form-data body's fields and files, parsed as a server would (with the platform's
 * own parser); undefined when the body is not multipart or cannot be read.
 */
export async function readMultipart(request: FakeRequest): Promise<FormData | undefined> {
	const contentType = request.headers["content-type"] ?? "";
	if (!contentType.startsWith("multipart/form-data")) return undefined;
	try {
		return await new Response(Buffer.from(request.rawBody), {
			headers: { "content-type": contentType },
		}).formData();
	} catch {
		return undefined;
	}
}

/** Whether a file input names an http(s) URL, which vendors take beside data URIs. */
export function isHttpUrl(value: unknown): boolean {
	return typeof value === "string" && /^https?:\/\//.test(value);
}

/** The image a data URI (`data:image/png;base64,...`) holds; undefined when it is not one. */
export function decodeDataUri(
	value: unknown,
): { data: Uint8Array; contentType: string } | undefined {
	if (typeof value !== "string") return undefined;
	const match = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/=]+)$/.exec(value);
	if (!match) return undefined;
	return {
		contentType: match[1] ?? "",
		data: new Uint8Array(Buffer.from(match[2] ?? "", "base64")),
	};
}

/**
 * An image made from one a client sent: resized to the size asked for and tinted by the job, so
 * a test can tell by its pixels that the image sent was used (and which job made it).
 */
export async function renderFromImage(options: {
	source: Uint8Array;
	width: number;
	height: number;
	format: FakeImageFormat;
}): Promise<{ data: Uint8Array; contentType: string }> {
	const image = sharp(options.source).resize(options.width, options.height, { fit: "fill" });
	const encoded =
		options.format === "png"
			? image.png({ compressionLevel: 1 })
			: options.format === "jpeg"
				? image.jpeg({ quality: 90 })
				: image.webp({ quality: 90 });
	return {
		data: new Uint8Array(await encoded.toBuffer()),
		contentType: CONTENT_TYPES[options.format],
	};
}

/**
 * Failures planned per endpoint: after letting `after` requests through (none by default), the
 * next `times` requests to that endpoint (every one by default) answer with `kind`, then the fake
 * behaves normally again. A later plan for the same endpoint replaces the earlier one.
 */
export type FailurePlan<Endpoint extends string, Kind extends string> = {
	fail(endpoint: Endpoint, kind: Kind, options?: FailureTiming): void;
	/** The failure for this request, if one is planned; counts it. */
	take(endpoint: Endpoint): Kind | undefined;
	clear(): void;
};

export type FailureTiming = { times?: number; after?: number };

export function createFailurePlan<Endpoint extends string, Kind extends string>(): FailurePlan<
	Endpoint,
	Kind
> {
	const planned = new Map<Endpoint, { kind: Kind; remaining: number; skip: number }>();
	return {
		fail(endpoint, kind, options = {}) {
			const times = options.times ?? Number.POSITIVE_INFINITY;
			if (times > 0) planned.set(endpoint, { kind, remaining: times, skip: options.after ?? 0 });
		},
		take(endpoint) {
			const plan = planned.get(endpoint);
			if (!plan) return undefined;
			if (plan.skip > 0) {
				plan.skip -= 1;
				return undefined;
			}
			plan.remaining -= 1;
			if (plan.remaining <= 0) planned.delete(endpoint);
			return plan.kind;
		},
		clear() {
			planned.clear();
		},
	};
}

export type FakeImageFormat = "png" | "jpeg" | "webp";

const CONTENT_TYPES: Record<FakeImageFormat, string> = {
	png: "image/png",
	jpeg: "image/jpeg",
	webp: "image/webp",
};

/**
 * A real image of the requested size: a flat colour per job and index, a quarter turn of hue
 * apart, so the images of a job differ and their dimensions can be checked.
 */
export async function renderFakeImage(options: {
	width: number;
	height: number;
	seed: string;
	index: number;
	format: FakeImageFormat;
}): Promise<{ data: Uint8Array; contentType: string }> {
	const hue =
		(createHash("sha256").update(options.seed).digest().readUInt16BE(0) + options.index * 90) % 360;
	const image = sharp({
		create: {
			width: options.width,
			height: options.height,
			channels: 3,
			background: `hsl(${hue}, 70%, 50%)`,
		},
	});
	const encoded =
		options.format === "png"
			? image.png({ compressionLevel: 1 })
			: options.format === "jpeg"
				? image.jpeg({ quality: 70 })
				: image.webp({ quality: 70 });
	const data = await encoded.toBuffer();
	return { data: new Uint8Array(data), contentType: CONTENT_TYPES[options.format] };
}

/** A PNG's width and height, read from its header; undefined for anything else. */
function readPngSize(data: Uint8Array): { width: number; height: number } | undefined {
	const bytes = Buffer.from(data);
	if (bytes.length < 24 || bytes.toString("latin1", 1, 4) !== "PNG") return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * A hosted inpainting model's mask input (Replicate's `mask`, FLUX Fill's `mask_url`), checked as
 * they take it: a PNG data URI of the image's size, white where the image may change. Undefined
 * when none was sent; the problem, in the vendor's words, when it is not one.
 */
export function readMaskInput(
	value: unknown,
	image: Uint8Array,
): { data: Uint8Array } | { problem: string } | undefined {
	if (value === undefined) return undefined;
	const mask = decodeDataUri(value);
	const maskSize = mask ? readPngSize(mask.data) : undefined;
	if (!mask || !maskSize) return { problem: "must be a PNG image (data URI or URL)" };
	const imageSize = readPngSize(image);
	if (!imageSize || imageSize.width !== maskSize.width || imageSize.height !== maskSize.height) {
		return { problem: "mask and image must have the same size" };
	}
	return { data: mask.data };
}

/**
 * What a fake inpainting model makes of a masked image: every pixel changed (the colours
 * negated), inside the mask and out, as GPT image models are measured to do; Atelier must put
 * back what lies outside the mask.
 */
export async function repaintWholeImage(source: Uint8Array): Promise<Uint8Array> {
	return new Uint8Array(await sharp(source).negate({ alpha: false }).png().toBuffer());
}
