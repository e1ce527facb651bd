import type { z } from "zod";
import { BodyTooLargeError, readLimitedBody } from "../../net/read-limited-body";
import { createRequestDeadline } from "../../net/request-deadline";
import { readRetryAfterMs } from "../../net/retry-after";
import { type ProviderCallOptions, ProviderError } from "../types";
import { PROVIDER_MESSAGES } from "./provider-messages";
import { toRequestFailure } from "./request-failure";

/** How a vendor's answer body came back: parsed JSON, or why it is not JSON. */
type ReplyBody =
	| { isJson: true; value: unknown }
	| { isJson: false; problem: string; bytes: Uint8Array };

export type VendorReply = {
	status: number;
	ok: boolean;
	headers: Headers;
	body: ReplyBody;
};

type VendorRequest = {
	method: "GET" | "POST" | "PUT";
	url: URL;
	headers?: Record<string, string>;
	/** Sent as JSON with `content-type: application/json`. */
	json?: unknown;
	/** Sent as multipart/form-data (a file upload); fetch writes the boundary. */
	form?: FormData;
	/** The answer is a file (an image), not JSON: its bytes are kept as they are. */
	isBinary?: boolean;
	/** Sees the answer's bytes as they arrive (a streamed answer), before the whole is returned. */
	onChunk?: (chunk: Uint8Array) => void;
};

/** What every adapter's options take for the requests it sends. */
export type VendorRequestSettings = {
	fetch?: typeof fetch;
	/** Limit for each request (30 s unless set), so a hanging service never blocks the worker. */
	requestTimeoutMs?: number;
};

type VendorClientOptions = {
	/** The largest answer read; a bigger one is refused without reading the rest. */
	maxResponseBytes: number;
	/**
	 * Headers that carry credentials, sent only with requests to `origin` (the API's own), never
	 * to another host an answer names.
	 */
	credentials?: { origin: string; headers: Record<string, string> };
};

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Sends one request to a vendor's API and reads its whole (size-limited) answer. */
export type SendVendorRequest = (
	what: string,
	request: VendorRequest,
	callOptions?: ProviderCallOptions,
) => Promise<VendorReply>;

/**
 * A request function with the safety every adapter needs: a per-request deadline combined with
 * the caller's signal, a size limit on answers, credentials for the API's origin only, and
 * network failures and timeouts turned into retryable ProviderErrors (a caller's abort rejects
 * with the caller's own reason).
 */
export function createVendorClient(
	settings: VendorRequestSettings,
	options: VendorClientOptions,
): SendVendorRequest {
	const fetchVendor = settings.fetch ?? fetch;
	const timeoutMs = settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const { credentials } = options;
	return async (what, request, callOptions) => {
		const deadline = createRequestDeadline(timeoutMs, callOptions?.signal);
		const headers: Record<string, string> = {
			accept: request.isBinary ? "image/*" : "application/json",
			...(credentials && request.url.origin === credentials.origin ? credentials.headers : {}),
			...request.headers,
		};
		if (request.json !== undefined) headers["content-type"] = "application/json";
		try {
			const response = await fetchVendor(request.url, {
				method: request.method,
				headers,
				...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
				...(request.form === undefined ? {} : { body: request.form }),
				signal: deadline.signal,
			});
			const bytes = await readLimitedBody(
				response,
				options.maxResponseBytes,
				response.ok ? request.onChunk : undefined,
			);
			return {
				status: response.status,
				ok: response.ok,
				headers: response.headers,
				body: request.isBinary
					? { isJson: false, problem: "a file was asked for", bytes }
					: parseReplyBody(bytes),
			};
		} catch (error) {
			if (error instanceof BodyTooLargeError) {
				throw new ProviderError(`${what} answered more than ${error.maxBytes} bytes`, {
					retryable: false,
					cause: error,
				});
			}
			throw toRequestFailure(error, deadline, what);
		}
	};
}

function parseReplyBody(bytes: Uint8Array): ReplyBody {
	const text = new TextDecoder().decode(bytes);
	try {
		return { isJson: true, value: JSON.parse(text) };
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		const preview = text.slice(0, 80).replace(/\s+/g, " ");
		return { isJson: false, problem: `${detail}; body starts ${JSON.stringify(preview)}`, bytes };
	}
}

/**
 * Parses a successful answer with the vendor's schema. A body that is not JSON or not of the
 * documented shape is a ProviderError; `retryable` says whether asking again is safe and free
 * (a poll) or could start, and bill, a second job (a create).
 */
export function parseReply<Schema extends z.ZodType>(
	what: string,
	reply: VendorReply,
	schema: Schema,
	options: { retryable: boolean },
): z.infer<Schema> {
	if (!reply.body.isJson) {
		throw new ProviderError(`${what} answered a body that is not JSON (${reply.body.problem})`, {
			retryable: options.retryable,
		});
	}
	const parsed = schema.safeParse(reply.body.value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
		const value = reply.body.value;
		const shape =
			typeof value === "object" && value !== null && !Array.isArray(value)
				? "of an unexpected shape"
				: "that is not an object";
		throw new ProviderError(
			`${what} answered JSON ${shape} (${issue?.message ?? "invalid"}${where})`,
			{ retryable: options.retryable },
		);
	}
	return parsed.data;
}

/** Parses an error answer's body with a schema; undefined when it is not JSON or not that shape. */
export function readErrorBody<Schema extends z.ZodType>(
	reply: VendorReply,
	schema: Schema,
): z.infer<Schema> | undefined {
	if (!reply.body.isJson) return undefined;
	const parsed = schema.safeParse(reply.body.value);
	return parsed.success ? parsed.data : undefined;
}

/**
 * The error for a poll's non-2xx answer: a 404 means the vendor no longer knows the job (failing
 * without retry); anything else is read as `toHttpStatusError` reads it.
 */
export function toPollError(
	what: string,
	reply: VendorReply,
	vendorMessage: string | undefined,
): ProviderError {
	if (reply.status === 404) {
		const detail = vendorMessage ? `: ${vendorMessage}` : "";
		return new ProviderError(`${what} answered HTTP 404${detail}`, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.lost,
		});
	}
	return toHttpStatusError(what, reply, vendorMessage, "poll");
}

/**
 * The error for a non-2xx answer with no vendor-specific meaning: 429 and 5xx are tried again
 * (after Retry-After), a 429 marked busy; anything else fails the generation. People see the
 * error catalogue's words: a start error shows the vendor's message or `HTTP <status>`, a poll
 * `Polling HTTP <status>`. `logMessage` replaces the logged message where the vendor said more.
 */
export function toHttpStatusError(
	what: string,
	reply: VendorReply,
	vendorMessage: string | undefined,
	step: "start" | "poll",
	logMessage?: string,
): ProviderError {
	const detail = vendorMessage ? `: ${vendorMessage}` : "";
	const message = logMessage ?? `${what} answered HTTP ${reply.status}${detail}`;
	const catalogueMessage =
		step === "poll" ? `Polling HTTP ${reply.status}` : (vendorMessage ?? `HTTP ${reply.status}`);
	if (reply.status === 429) {
		return new ProviderError(message, {
			retryable: true,
			retryAfterMs: readRetryAfterMs(reply.headers),
			userMessage: PROVIDER_MESSAGES.busy,
			isBusy: true,
		});
	}
	if (reply.status >= 500) {
		return new ProviderError(message, {
			retryable: true,
			retryAfterMs: readRetryAfterMs(reply.headers),
			userMessage: catalogueMessage,
		});
	}
	if (reply.status === 401) {
		return new ProviderError(message, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.credentials,
		});
	}
	return new ProviderError(message, { retryable: false, userMessage: catalogueMessage });
}
