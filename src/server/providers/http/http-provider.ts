import { z } from "zod";
import { isPrivateHostname } from "../../net/private-address";
import { BodyTooLargeError, readLimitedBody } from "../../net/read-limited-body";
import { createRequestDeadline } from "../../net/request-deadline";
import { parseRetryAfter } from "../../net/retry-after";
import { toRequestFailure } from "../shared/request-failure";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type ProviderCallOptions,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
} from "../types";

export type HttpProviderOptions = {
	/** The start URL of the service: `POST {apiUrl}` starts a generation. */
	apiUrl: string;
	/** Sent as `Authorization: Bearer …` to the API's origin only. */
	apiKey?: string;
	fetch?: typeof fetch;
	/** Limit for each request, so a hanging service never blocks the worker. */
	requestTimeoutMs?: number;
};

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
// The answers are small JSON documents; anything far larger is not one of them.
const MAX_RESPONSE_BYTES = 1024 * 1024;
const GENERATION_FAILED = "Generation failed";

// Fields are read leniently (`catch`): a field of an unexpected type is treated as missing rather
// than failing the whole answer, as the original client did. The body must still be an object.
const ErrorFieldSchema = z
	.union([
		z.string(),
		z.object({
			message: z.string().optional().catch(undefined),
			code: z.union([z.string(), z.number()]).optional().catch(undefined),
		}),
	])
	.optional()
	.catch(undefined);

const StartResponseSchema = z.object({
	success: z.boolean().optional().catch(undefined),
	id: z.union([z.string(), z.number()]).optional().catch(undefined),
	pollingUrl: z.string().optional().catch(undefined),
	status: z.string().optional().catch(undefined),
	error: ErrorFieldSchema,
	message: z.string().nullish().catch(undefined),
});

const PollResponseSchema = z.object({
	status: z.string().optional().catch(undefined),
	results: z.array(z.unknown()).nullish().catch(undefined),
	message: z.string().nullish().catch(undefined),
	error: ErrorFieldSchema,
	progress: z.number().min(0).max(100).optional().catch(undefined),
});

const ResultItemSchema = z.union([
	z.string(),
	z.object({ url: z.string() }),
	z.object({ src: z.string() }),
]);

/**
 * The job id saved by the worker: the service's id and the absolute polling URL, as JSON, so
 * `check` can find the job after a restart from nothing but the saved id.
 */
const HttpJobIdSchema = z.object({ id: z.string(), pollingUrl: z.string() });
type HttpJobId = z.infer<typeof HttpJobIdSchema>;

type JsonReply = {
	status: number;
	ok: boolean;
	headers: Headers;
	/** The parsed body, or why it could not be parsed. */
	body: { isJson: true; value: unknown } | { isJson: false; problem: string };
};

/**
 * The "http" provider: a Midjourney-style service behind the start-then-poll contract.
 * `POST {apiUrl}` `{ prompt, aspectRatio }` answers `{ success, id, pollingUrl }`; then
 * `GET {pollingUrl}` answers `{ status, results, message }` until completed, failed or error
 * (a numeric `progress` of 0-100, where a service sends one, is passed on while running).
 * The contract has no way to cancel a job, so there is no `cancel`.
 */
export function createHttpProvider(options: HttpProviderOptions): ImageProvider {
	const apiUrl = parseApiUrl(options.apiUrl);
	const fetchJson = options.fetch ?? fetch;
	const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const authorization = options.apiKey ? `Bearer ${options.apiKey}` : undefined;

	async function send(
		what: string,
		url: URL,
		init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
		callOptions: ProviderCallOptions | undefined,
	): Promise<JsonReply> {
		const deadline = createRequestDeadline(timeoutMs, callOptions?.signal);
		try {
			const response = await fetchJson(url, { ...init, signal: deadline.signal });
			const bytes = await readLimitedBody(response, MAX_RESPONSE_BYTES);
			return {
				status: response.status,
				ok: response.ok,
				headers: response.headers,
				body: parseJson(bytes),
			};
		} catch (error) {
			if (error instanceof BodyTooLargeError) {
				throw new ProviderError(`${what} answered more than ${MAX_RESPONSE_BYTES} bytes`, {
					retryable: false,
					cause: error,
				});
			}
			throw toRequestFailure(error, deadline, what);
		}
	}

	return {
		name: "http",
		trustedPrivateHosts: isPrivateHostname(apiUrl.hostname) ? [toHostAndPort(apiUrl)] : [],

		async start(input: GenerationInput, callOptions?: ProviderCallOptions) {
			const what = `Starting a generation at ${describeUrl(apiUrl)}`;
			const reply = await send(
				what,
				apiUrl,
				{
					method: "POST",
					headers: {
						"content-type": "application/json",
						accept: "application/json",
						...(authorization ? { authorization } : {}),
					},
					body: JSON.stringify({ prompt: input.prompt, aspectRatio: input.aspectRatio }),
				},
				callOptions,
			);
			if (!reply.ok) throw toStartStatusError(what, reply);
			const answer = StartResponseSchema.safeParse(readJsonObject(what, reply));
			if (!answer.success) throw toBodyShapeError(what);
			const { success, id, pollingUrl, status } = answer.data;
			const serverMessage = readErrorMessage(answer.data.error) ?? nonEmpty(answer.data.message);
			if (success === false || isFailedStatus(status)) {
				throw new ProviderError(`${what} was refused: ${serverMessage ?? "no error given"}`, {
					retryable: false,
					userMessage: serverMessage ?? GENERATION_FAILED,
				});
			}
			if (!pollingUrl) {
				throw new ProviderError(`${what} answered without a pollingUrl`, {
					retryable: false,
					userMessage: "No polling URL provided",
				});
			}
			const absolutePollingUrl = parseHttpUrl(
				resolveUrl(pollingUrl, apiUrl),
				"The provider's polling URL",
			);
			return {
				jobId: encodeJobId({
					id: id === undefined ? "" : String(id),
					pollingUrl: absolutePollingUrl.href,
				}),
			};
		},

		async check(job: ProviderJob, callOptions?: ProviderCallOptions): Promise<ProviderJobState> {
			const pollingUrl = parseHttpUrl(decodeJobId(job.jobId).pollingUrl, "The saved polling URL");
			const what = `Polling ${describeUrl(pollingUrl)}`;
			// Credentials go only to the vendor's own origin, never to a host its answers name.
			const pollAuthorization = pollingUrl.origin === apiUrl.origin ? authorization : undefined;
			const reply = await send(
				what,
				pollingUrl,
				{
					method: "GET",
					headers: {
						accept: "application/json",
						...(pollAuthorization ? { authorization: pollAuthorization } : {}),
					},
				},
				callOptions,
			);
			if (!reply.ok) throw toPollStatusError(what, reply);
			const answer = PollResponseSchema.safeParse(readJsonObject(what, reply));
			if (!answer.success) throw toBodyShapeError(what);
			const poll = answer.data;
			const status = poll.status?.toLowerCase();
			if (status === "completed") return toCompletedState(poll.results, pollingUrl);
			if (isFailedStatus(status)) {
				return {
					status: "failed",
					message: nonEmpty(poll.message) ?? readErrorMessage(poll.error) ?? GENERATION_FAILED,
					reason: `The provider reported status "${poll.status}"`,
				};
			}
			return poll.progress === undefined
				? { status: "running" }
				: { status: "running", progress: poll.progress };
		},
	};
}

function toCompletedState(
	results: unknown[] | null | undefined,
	pollingUrl: URL,
): ProviderJobState {
	const images: ImageSource[] = [];
	for (const item of results ?? []) {
		const parsed = ResultItemSchema.safeParse(item);
		if (!parsed.success) continue;
		const value = parsed.data;
		const raw = typeof value === "string" ? value : "url" in value ? value.url : value.src;
		const url = URL.canParse(raw, pollingUrl) ? new URL(raw, pollingUrl) : undefined;
		if (url && (url.protocol === "http:" || url.protocol === "https:")) {
			images.push({ kind: "url", url: url.href });
		}
	}
	if (images.length === 0) {
		return {
			status: "failed",
			message: GENERATION_FAILED,
			reason: `The provider reported completed with no usable image URL (${results?.length ?? 0} results)`,
		};
	}
	return { status: "completed", images };
}

function isFailedStatus(status: string | undefined): boolean {
	const normalized = status?.toLowerCase();
	return normalized === "failed" || normalized === "error";
}

function encodeJobId(job: HttpJobId): string {
	return JSON.stringify({ id: job.id, pollingUrl: job.pollingUrl });
}

function decodeJobId(jobId: string): HttpJobId {
	const parsed = HttpJobIdSchema.safeParse(parseJsonText(jobId));
	if (!parsed.success) {
		throw new ProviderError(`Not an http provider job id: ${JSON.stringify(jobId.slice(0, 200))}`, {
			retryable: false,
		});
	}
	return parsed.data;
}

function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function parseJson(bytes: Uint8Array): JsonReply["body"] {
	const text = new TextDecoder().decode(bytes);
	try {
		return { isJson: true, value: JSON.parse(text) };
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		const preview = text.slice(0, 80).replace(/\s+/g, " ");
		return { isJson: false, problem: `${detail}; body starts ${JSON.stringify(preview)}` };
	}
}

// A 200 whose body is not JSON is usually a proxy or gateway page, not the service: try again.
function readJsonObject(what: string, reply: JsonReply): unknown {
	if (!reply.body.isJson) {
		throw new ProviderError(`${what} answered a body that is not JSON (${reply.body.problem})`, {
			retryable: true,
		});
	}
	return reply.body.value;
}

function toBodyShapeError(what: string): ProviderError {
	return new ProviderError(`${what} answered JSON that is not an object`, { retryable: true });
}

function toStartStatusError(what: string, reply: JsonReply): ProviderError {
	const serverMessage = reply.body.isJson ? readServerError(reply.body.value) : undefined;
	// The catalogue's start error: the server's message or code, else "HTTP <status>".
	const userMessage = serverMessage ?? `HTTP ${reply.status}`;
	return new ProviderError(`${what} answered HTTP ${reply.status}: ${userMessage}`, {
		...toStatusRetry(reply),
		userMessage,
	});
}

function toPollStatusError(what: string, reply: JsonReply): ProviderError {
	if (reply.status === 404 || reply.status === 410) {
		return new ProviderError(
			`Generation not found at the provider: ${what} answered HTTP ${reply.status}`,
			{ retryable: false },
		);
	}
	const serverMessage = reply.body.isJson ? readServerError(reply.body.value) : undefined;
	const detail = serverMessage ? `: ${serverMessage}` : "";
	return new ProviderError(`${what} answered HTTP ${reply.status}${detail}`, toStatusRetry(reply));
}

function toStatusRetry(reply: JsonReply): {
	retryable: boolean;
	retryAfterMs?: number;
	isBusy?: boolean;
} {
	if (reply.status === 429 || reply.status >= 500) {
		return {
			retryable: true,
			retryAfterMs: parseRetryAfter(reply.headers.get("retry-after")),
			isBusy: reply.status === 429,
		};
	}
	return { retryable: false };
}

const ServerErrorSchema = z.object({
	error: ErrorFieldSchema,
	message: z.string().nullish().catch(undefined),
});

function readServerError(body: unknown): string | undefined {
	const parsed = ServerErrorSchema.safeParse(body);
	if (!parsed.success) return undefined;
	return readErrorMessage(parsed.data.error) ?? nonEmpty(parsed.data.message);
}

function readErrorMessage(error: z.infer<typeof ErrorFieldSchema>): string | undefined {
	if (typeof error === "string") return nonEmpty(error);
	if (!error) return undefined;
	return nonEmpty(error.message) ?? (error.code === undefined ? undefined : String(error.code));
}

function nonEmpty(text: string | null | undefined): string | undefined {
	const trimmed = text?.trim();
	return trimmed ? trimmed : undefined;
}

function resolveUrl(value: string, base: URL): string {
	return URL.canParse(value, base) ? new URL(value, base).href : value;
}

// A bad API URL is a configuration mistake found at boot, not a provider failure.
function parseApiUrl(value: string): URL {
	const url = URL.canParse(value) ? new URL(value) : undefined;
	if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
		throw new Error(`The http provider's API URL is not an http(s) URL: ${JSON.stringify(value)}`);
	}
	return url;
}

function parseHttpUrl(value: string, label: string): URL {
	const url = URL.canParse(value) ? new URL(value) : undefined;
	if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
		throw new ProviderError(
			`${label} is not an http(s) URL: ${JSON.stringify(value.slice(0, 200))}`,
			{
				retryable: false,
			},
		);
	}
	return url;
}

// Explicit port even when it is the scheme's default, so the entry names exactly one service.
function toHostAndPort(url: URL): string {
	return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

// Polling and image URLs may carry signed tokens in the query; logs get the origin and path only.
function describeUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}
