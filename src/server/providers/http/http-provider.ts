import { z } from "zod";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import { parseRetryAfter } from "../../net/retry-after";
import { toDataUri } from "../shared/hosted-image-input";
import { describeJobId, readJobId } from "../shared/job-id";
import {
	describeUrl,
	listTrustedPrivateHosts,
	parseConfiguredUrl,
	parseVendorUrl,
	readHttpUrl,
} from "../shared/provider-urls";
import {
	createVendorClient,
	parseReply,
	readErrorBody,
	type VendorReply,
	type VendorRequestSettings,
} from "../shared/vendor-request";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type InputImage,
	PLAIN_CAPABILITIES,
	ProviderError,
	type ProviderJobState,
} from "../types";

export type HttpProviderOptions = VendorRequestSettings & {
	/** The start URL of the service: `POST {apiUrl}` starts a generation. */
	apiUrl: string;
	/** Sent as `Authorization: Bearer …` to the API's origin only. */
	apiKey?: string;
	/**
	 * What the service does with an image, as its entry says (the contract cannot tell): `image`
	 * takes one (Vary, Edit), `mask` repaints the region a mask covers (Edit region), `outpaint`
	 * paints a widened frame's new area (Expand, a region edit too). None by default.
	 */
	images?: { image: boolean; mask: boolean; outpaint: boolean };
	/**
	 * Send `image` and `mask` as short-lived signed URLs the service fetches (the run serves them:
	 * `fetchesImageUrls`), not inline as `data:` URLs. Off by default.
	 */
	imageUrls?: boolean;
};

// The answers are small JSON documents; anything far larger is not one of them.
const MAX_RESPONSE_BYTES = 1024 * 1024;

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

/**
 * The "http" provider: a Midjourney-style service behind the start-then-poll contract, which has
 * no seed, negative prompt or quality (PLAIN_CAPABILITIES); of its images the generation keeps
 * as many as it asked for.
 * `POST {apiUrl}` `{ prompt, aspectRatio }` answers `{ success, id, pollingUrl }`; then
 * `GET {pollingUrl}` answers `{ status, results, message }` until completed, failed or error
 * (a numeric `progress` of 0-100, where a service sends one, is passed on while running).
 * A generation from an image adds `image` (and `mask` for a region, white where the image may
 * change) to the start, each a PNG, JPEG or WebP as a `data:` URL, where the entry says the
 * service takes them; or, where the entry asks for `imageUrls`, as a short-lived signed URL of
 * the file for the service to fetch.
 * The contract has no way to cancel a job, so there is no `cancel`.
 */
export function createHttpProvider(options: HttpProviderOptions): ImageProvider {
	const apiUrl = parseConfiguredUrl(options.apiUrl, "The http provider's API URL");
	const send = createVendorClient(options, {
		maxResponseBytes: MAX_RESPONSE_BYTES,
		credentials: {
			origin: apiUrl.origin,
			headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
		},
	});

	const images = options.images ?? { image: false, mask: false, outpaint: false };

	return {
		name: "http",
		capabilities: {
			...PLAIN_CAPABILITIES,
			imageInput: images.image,
			mask: images.image && images.mask,
			outpaint: images.image && images.mask && images.outpaint,
		},
		trustedPrivateHosts: listTrustedPrivateHosts(apiUrl),
		fetchesImageUrls: options.imageUrls === true,

		async start(input, callOptions) {
			const what = `Starting a generation at ${describeUrl(apiUrl)}`;
			const json = {
				prompt: input.prompt,
				aspectRatio: input.aspectRatio,
				...toImageFields(input, options.imageUrls === true),
			};
			const reply = await send(what, { method: "POST", url: apiUrl, json }, callOptions);
			if (!reply.ok) throw toStartStatusError(what, reply);
			// A 200 whose body is not JSON is usually a proxy or gateway page, not the service: try again.
			const answer = parseReply(what, reply, StartResponseSchema, { retryable: true });
			const { success, id, pollingUrl, status } = answer;
			const serverMessage = readErrorMessage(answer.error) ?? nonEmpty(answer.message);
			if (success === false || isFailedStatus(status)) {
				throw new ProviderError(`${what} was refused: ${serverMessage ?? "no error given"}`, {
					retryable: false,
					userMessage: serverMessage ?? GENERATION_MESSAGES.failed,
				});
			}
			if (!pollingUrl) {
				throw new ProviderError(`${what} answered without a pollingUrl`, {
					retryable: false,
					userMessage: GENERATION_MESSAGES.noPollingUrl,
				});
			}
			const job: HttpJobId = {
				id: id === undefined ? "" : String(id),
				pollingUrl: parseVendorUrl(pollingUrl, "The provider's polling URL", apiUrl).href,
			};
			return { jobId: JSON.stringify(job) };
		},

		async check(job, callOptions) {
			const pollingUrl = parseVendorUrl(decodeJobId(job.jobId).pollingUrl, "The saved polling URL");
			const what = `Polling ${describeUrl(pollingUrl)}`;
			const reply = await send(what, { method: "GET", url: pollingUrl }, callOptions);
			if (!reply.ok) throw toPollStatusError(what, reply);
			const poll = parseReply(what, reply, PollResponseSchema, { retryable: true });
			const status = poll.status?.toLowerCase();
			if (status === "completed") {
				return toCompletedState(poll.results, pollingUrl, job.input.count);
			}
			if (isFailedStatus(status)) {
				return {
					status: "failed",
					message:
						nonEmpty(poll.message) ?? readErrorMessage(poll.error) ?? GENERATION_MESSAGES.failed,
					reason: `The provider reported status "${poll.status}"`,
				};
			}
			return poll.progress === undefined
				? { status: "running" }
				: { status: "running", progress: poll.progress };
		},
	};
}

/**
 * The first `count` usable images: the contract has no image count, so a service answers as many
 * as it makes (four, Midjourney-style) and the generation keeps the number it asked for.
 */
function toCompletedState(
	results: unknown[] | null | undefined,
	pollingUrl: URL,
	count: number,
): ProviderJobState {
	const images: ImageSource[] = [];
	for (const item of results ?? []) {
		const parsed = ResultItemSchema.safeParse(item);
		if (!parsed.success) continue;
		const value = parsed.data;
		const url = readHttpUrl(
			typeof value === "string" ? value : "url" in value ? value.url : value.src,
			pollingUrl,
		);
		if (url) images.push({ kind: "url", url: url.href });
	}
	if (images.length === 0) {
		return {
			status: "failed",
			message: GENERATION_MESSAGES.failed,
			reason: `The provider reported completed with no usable image URL (${results?.length ?? 0} results)`,
		};
	}
	return { status: "completed", images: images.slice(0, Math.max(1, count)) };
}

/**
 * The contract's optional image fields: `image` for a generation from an image, `mask` (the one
 * Atelier keeps, white = change) for a region, both `data:` URLs, or the signed URLs the run
 * served them at where `asUrls`; nothing for a prompt alone.
 */
function toImageFields(input: GenerationInput, asUrls: boolean): { image?: string; mask?: string } {
	const instruction = input.image;
	if (!instruction) return {};
	const send = (image: InputImage) => {
		if (!asUrls) return toDataUri(image);
		if (image.url) return image.url;
		throw new ProviderError("The image to send by URL was not served", { retryable: false });
	};
	if (instruction.kind !== "region") return { image: send(instruction.image) };
	return { image: send(instruction.image), mask: send(instruction.mask) };
}

function isFailedStatus(status: string | undefined): boolean {
	const normalized = status?.toLowerCase();
	return normalized === "failed" || normalized === "error";
}

function decodeJobId(jobId: string): HttpJobId {
	const job = readJobId(jobId, HttpJobIdSchema);
	if (!job) {
		throw new ProviderError(`Not an http provider job id: ${describeJobId(jobId)}`, {
			retryable: false,
		});
	}
	return job;
}

function toStartStatusError(what: string, reply: VendorReply): ProviderError {
	// The catalogue's start error: the server's message or code, else "HTTP <status>".
	const userMessage = readServerError(reply) ?? `HTTP ${reply.status}`;
	return new ProviderError(`${what} answered HTTP ${reply.status}: ${userMessage}`, {
		...toStatusRetry(reply),
		userMessage,
	});
}

function toPollStatusError(what: string, reply: VendorReply): ProviderError {
	if (reply.status === 404 || reply.status === 410) {
		return new ProviderError(
			`Generation not found at the provider: ${what} answered HTTP ${reply.status}`,
			{ retryable: false },
		);
	}
	const serverMessage = readServerError(reply);
	const detail = serverMessage ? `: ${serverMessage}` : "";
	return new ProviderError(`${what} answered HTTP ${reply.status}${detail}`, toStatusRetry(reply));
}

function toStatusRetry(reply: VendorReply): {
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

function readServerError(reply: VendorReply): string | undefined {
	const body = readErrorBody(reply, ServerErrorSchema);
	if (!body) return undefined;
	return readErrorMessage(body.error) ?? nonEmpty(body.message);
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
