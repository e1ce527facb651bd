import { randomUUID } from "node:crypto";
import { z } from "zod";
import { DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES } from "../../../shared/image-input/image-types";
import { readRetryAfterMs } from "../../net/retry-after";
import { sniffImageType } from "../../net/sniff-image-type";
import { decodeJobId, encodeJobId } from "../shared/job-id";
import {
	isModerationText,
	PROVIDER_MESSAGES,
	summarizeVendorText,
} from "../shared/provider-messages";
import {
	describeUrl,
	listTrustedPrivateHosts,
	parseBaseUrl,
	resolveBelow,
} from "../shared/provider-urls";
import {
	createVendorClient,
	parseReply,
	readErrorBody,
	toHttpStatusError,
	type VendorReply,
	type VendorRequestSettings,
} from "../shared/vendor-request";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type InputImage,
	type PreviewFrame,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
	type ProviderProgress,
} from "../types";
import { cropToAspectRatio } from "./crop-to-ratio";
import { createImageEventReader, readImageEvents } from "./image-stream";
import {
	OPENAI_DEFAULT_BASE_URL,
	OPENAI_DEFAULT_MODEL,
	OPENAI_DEFAULT_QUALITY,
	OPENAI_DEFAULT_SIZES,
	OPENAI_GENERATION_QUALITIES,
	type OpenAiQuality,
	type OpenAiSizeMode,
} from "./openai-config";
import { toOpenAiMask } from "./openai-mask";
import { selectOpenAiSize } from "./openai-sizes";

export type OpenAiProviderOptions = VendorRequestSettings & {
	apiKey: string;
	/** The API root, `https://api.openai.com/v1` by default (or an OpenAI-compatible gateway's). */
	baseUrl?: string;
	model?: string;
	/**
	 * The quality sent when a generation names none. `auto` lets OpenAI choose; a generation may
	 * name `low`, `medium` or `high` itself.
	 */
	quality?: OpenAiQuality;
	sizes?: OpenAiSizeMode;
	/** The largest image accepted; the answer may be up to four of them in base64. */
	maxImageBytes?: number;
	/**
	 * Partial images streamed per image (0 to 3, `stream: true`), shown as the generation's
	 * preview; 2 for GPT image models, which offer them, 0 (no streaming) for others.
	 */
	partialImages?: number;
};

function defaultPartialImages(model: string): number {
	return model.startsWith("gpt-image") ? 2 : 0;
}

/** A streamed answer's finished images, in the shape of the unstreamed one. */
function readStreamedAnswer(
	what: string,
	reply: VendorReply,
): z.infer<typeof ImagesResponseSchema> {
	const completed = reply.body.isJson
		? []
		: readImageEvents(reply.body.bytes).filter(
				(event) => COMPLETED_IMAGE_EVENTS.has(event.type) && event.b64_json !== undefined,
			);
	// No finished image streamed: a gateway that ignored `stream` answers the plain JSON, and
	// anything else is refused the way an unreadable plain answer is.
	if (completed.length === 0) {
		return parseReply(what, reply, ImagesResponseSchema, { retryable: false });
	}
	return { data: completed.map((event) => ({ b64_json: event.b64_json })) };
}

// A generation streams `image_generation.*` events, an edit `image_edit.*` ones.
const PARTIAL_IMAGE_EVENTS = new Set([
	"image_generation.partial_image",
	"image_edit.partial_image",
]);
const COMPLETED_IMAGE_EVENTS = new Set(["image_generation.completed", "image_edit.completed"]);

/**
 * The edit endpoint's form: the reference as the `image` file (with a region, its `mask` file in
 * OpenAI's convention, openai-mask.ts), every other field as text (a multipart form has no
 * numbers or booleans).
 */
function toEditForm(
	fields: Record<string, string | number | boolean>,
	image: InputImage,
	mask?: Buffer,
): FormData {
	const form = new FormData();
	const extension = image.contentType.slice("image/".length);
	form.append(
		"image",
		new Blob([Buffer.from(image.data)], { type: image.contentType }),
		`reference.${extension}`,
	);
	if (mask)
		form.append("mask", new Blob([new Uint8Array(mask)], { type: "image/png" }), "mask.png");
	for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
	return form;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 180_000;
// Settled jobs nobody asked for again (their generation went away without a cancel) are dropped.
const ABANDONED_JOB_MS = 15 * 60 * 1000;

const ImagesResponseSchema = z.object({
	data: z.array(z.object({ b64_json: z.string().optional(), url: z.string().optional() })),
});

const ErrorBodySchema = z.object({
	error: z.object({
		message: z.string().nullish(),
		type: z.string().nullish(),
		code: z.string().nullish(),
		param: z.string().nullish(),
	}),
});

/** The saved job id: our own id for the one blocking request (OpenAI gives none to follow). */
const OpenAiJobIdSchema = z.object({ provider: z.literal("openai"), requestId: z.uuid() });

type OpenAiJob = {
	controller: AbortController;
	/**
	 * The newest partial image streamed while nobody watched the job, handed to the next watcher
	 * or the next check, whichever comes first.
	 */
	preview: PreviewFrame | undefined;
	settledAt: number | undefined;
	outcome: { state: ProviderJobState } | { error: ProviderError } | undefined;
};

/**
 * OpenAI's images API (gpt-image models). The vendor is synchronous: one call of tens of seconds
 * returns all images as base64. `start` sends that call in the background and answers at once,
 * so the worker saves the job id and polls as it does for every provider; `check` reports the
 * call's outcome, each image cropped to the exact ratio; with GPT image models the call streams
 * partial images (`stream`, `partial_images`), each handed as the job's preview to whoever
 * `watch`es the job the moment it arrives (else to the next check), as ComfyUI's WebSocket hands
 * over its frames.
 * Vary and Edit send the reference to the edit endpoint (`/images/edits`, multipart/form-data
 * with the `image` file) with the same fields; it has no strength setting, so the strength is
 * not sent (docs/providers.md says so). After a restart the call is lost with
 * the process, so `check` sends it again (docs/decisions/004-providers.md).
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ImageProvider {
	const baseUrl = parseBaseUrl(options.baseUrl ?? OPENAI_DEFAULT_BASE_URL, "OPENAI_BASE_URL");
	const model = options.model ?? OPENAI_DEFAULT_MODEL;
	const quality = options.quality ?? OPENAI_DEFAULT_QUALITY;
	const sizes = options.sizes ?? OPENAI_DEFAULT_SIZES;
	const maxImageBytes = options.maxImageBytes ?? DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES;
	// One generation is one blocking call that takes tens of seconds: it gets a longer limit.
	const settings = {
		fetch: options.fetch,
		requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
	};
	const credentials = {
		origin: baseUrl.origin,
		headers: { authorization: `Bearer ${options.apiKey}` },
	};
	const jobs = new Map<string, OpenAiJob>();
	// Whoever watches each call (by request id, so a call sent again after a restart is heard).
	const watchers = new Map<string, Set<(progress: ProviderProgress) => void>>();
	const partialImages = options.partialImages ?? defaultPartialImages(model);

	async function generate(
		input: GenerationInput,
		signal: AbortSignal,
		onPreview: (preview: PreviewFrame) => void,
	): Promise<ProviderJobState> {
		if (input.image?.kind === "upscale") {
			// Never offered (no upscale factors): a bug upstream, not worth a retry.
			throw new ProviderError("OpenAI's images API cannot upscale an image", { retryable: false });
		}
		const reference = input.image?.image;
		const mask = input.image?.kind === "region" ? await toOpenAiMask(input.image.mask) : undefined;
		const url = resolveBelow(baseUrl, reference ? "images/edits" : "images/generations");
		const what = `${reference ? "Editing an image" : "Generating images"} at ${describeUrl(url)}`;
		const isStreamed = partialImages > 0;
		// Base64 is 4/3 of the bytes; room for every image (and its partial frames) plus the JSON.
		const frames = isStreamed ? partialImages + 1 : 1;
		const send = createVendorClient(settings, {
			maxResponseBytes: Math.ceil((frames * input.count * maxImageBytes * 4) / 3) + 64 * 1024,
			credentials,
		});
		// Each partial frame, as it streams in, is the job's preview until the next.
		const readChunk = createImageEventReader((event) => {
			if (!PARTIAL_IMAGE_EVENTS.has(event.type) || !event.b64_json) return;
			const data = new Uint8Array(Buffer.from(event.b64_json, "base64"));
			const contentType = sniffImageType(data);
			if (contentType) onPreview({ data, contentType });
		});
		const fields = {
			model,
			prompt: input.prompt,
			n: input.count,
			size: selectOpenAiSize(model, sizes, input.aspectRatio),
			quality: input.quality ?? quality,
			output_format: "png",
			...(isStreamed ? { stream: true, partial_images: partialImages } : {}),
		};
		const reply = await send(
			what,
			{
				method: "POST",
				url,
				// An edit is the same request as multipart/form-data with the image as a file.
				...(reference ? { form: toEditForm(fields, reference, mask) } : { json: fields }),
				...(isStreamed ? { headers: { accept: "text/event-stream" }, onChunk: readChunk } : {}),
			},
			{ signal },
		);
		if (!reply.ok) throw toGenerateError(what, reply);
		// Not retried: the images were made (and billed) even when the answer is unreadable.
		const answer = isStreamed
			? readStreamedAnswer(what, reply)
			: parseReply(what, reply, ImagesResponseSchema, { retryable: false });
		const images: ImageSource[] = [];
		for (const [index, item] of answer.data.entries()) {
			if (item.b64_json !== undefined) {
				images.push(await decodeImage(item.b64_json, index, input));
			} else if (item.url !== undefined && URL.canParse(item.url)) {
				// Older OpenAI-compatible gateways answer URLs; they are downloaded as they are.
				images.push({ kind: "url", url: new URL(item.url).href });
			}
		}
		if (images.length === 0) {
			return {
				status: "failed",
				message: PROVIDER_MESSAGES.noImages,
				reason: `${what} answered ${answer.data.length} items without an image`,
			};
		}
		return { status: "completed", images };
	}

	async function decodeImage(
		base64: string,
		index: number,
		input: GenerationInput,
	): Promise<ImageSource> {
		const data = new Uint8Array(Buffer.from(base64, "base64"));
		if (data.byteLength > maxImageBytes || !sniffImageType(data)) {
			throw new ProviderError(
				`OpenAI's image ${index} is not an image of at most ${maxImageBytes} bytes (${data.byteLength} bytes)`,
				{ retryable: false },
			);
		}
		const cropped = await cropToAspectRatio(data, input.aspectRatio);
		return { kind: "bytes", data: cropped.data, contentType: cropped.contentType };
	}

	function launch(requestId: string, input: GenerationInput): void {
		const job: OpenAiJob = {
			controller: new AbortController(),
			preview: undefined,
			settledAt: undefined,
			outcome: undefined,
		};
		jobs.set(requestId, job);
		generate(input, job.controller.signal, (preview) => {
			const listening = watchers.get(requestId);
			if (!listening) {
				job.preview = preview;
				return;
			}
			job.preview = undefined;
			for (const onProgress of listening) onProgress({ preview });
		}).then(
			(state) => {
				job.outcome = { state };
				job.settledAt = Date.now();
			},
			(error: unknown) => {
				job.outcome = { error: toProviderError(error) };
				job.settledAt = Date.now();
			},
		);
	}

	function forgetAbandoned(): void {
		const cutoff = Date.now() - ABANDONED_JOB_MS;
		for (const [requestId, job] of jobs) {
			if (job.settledAt !== undefined && job.settledAt < cutoff) jobs.delete(requestId);
		}
	}

	return {
		name: "openai",
		// GPT image models take no seed and no negative prompt; quality is chosen per generation.
		capabilities: {
			seed: false,
			negativePrompt: false,
			qualities: OPENAI_GENERATION_QUALITIES,
			maxCount: 4,
			...(quality === "auto" ? {} : { defaultQuality: quality }),
			// Vary and Edit go through the edit endpoint, which has no strength: it is not sent, and
			// a strength asked for is refused (OpenAI decides how far to move from the image).
			textToImage: true,
			imageInput: true,
			referenceStrength: false,
			upscaleFactors: [],
			upscaleResamples: false,
			// The edit endpoint's `mask` (openai-mask.ts); the image is a frame of any size.
			mask: true,
			outpaint: true,
		},
		trustedPrivateHosts: listTrustedPrivateHosts(baseUrl),

		async start(input) {
			forgetAbandoned();
			const requestId = randomUUID();
			launch(requestId, input);
			return { jobId: encodeJobId({ provider: "openai", requestId }) };
		},

		async check(job: ProviderJob) {
			const { requestId } = decodeJobId(job.jobId, OpenAiJobIdSchema, "OpenAI");
			forgetAbandoned();
			const running = jobs.get(requestId);
			if (!running) {
				// Lost with a restart (or a retry is due): OpenAI has nothing to resume, so ask again.
				launch(requestId, job.input);
				return { status: "running" };
			}
			if (!running.outcome) {
				const preview = running.preview;
				running.preview = undefined;
				return preview ? { status: "running", preview } : { status: "running" };
			}
			// Settled: hand the result over once; a failure the worker retries sends the call again.
			jobs.delete(requestId);
			if ("error" in running.outcome) throw running.outcome.error;
			return running.outcome.state;
		},

		async cancel(job: ProviderJob) {
			const { requestId } = decodeJobId(job.jobId, OpenAiJobIdSchema, "OpenAI");
			// Aborting the call is OpenAI's only cancel.
			jobs.get(requestId)?.controller.abort(new Error("The generation was cancelled"));
			jobs.delete(requestId);
		},

		// Each partial image reaches the watcher as it streams in, not at the next check.
		watch(job: ProviderJob, { signal, onProgress }) {
			const { requestId } = decodeJobId(job.jobId, OpenAiJobIdSchema, "OpenAI");
			const listening = watchers.get(requestId) ?? new Set();
			watchers.set(requestId, listening);
			listening.add(onProgress);
			const stop = () => {
				signal.removeEventListener("abort", stop);
				listening.delete(onProgress);
				if (listening.size === 0 && watchers.get(requestId) === listening) {
					watchers.delete(requestId);
				}
			};
			signal.addEventListener("abort", stop, { once: true });
			// A frame that came before anyone watched is news still.
			const waiting = jobs.get(requestId);
			const preview = waiting?.preview;
			if (waiting && preview) {
				waiting.preview = undefined;
				onProgress({ preview });
			}
			return stop;
		},
	};
}

// Anything but a ProviderError (a crop that failed, say) is a bug here, not worth a retry.
function toProviderError(error: unknown): ProviderError {
	if (error instanceof ProviderError) return error;
	const detail = error instanceof Error ? error.message : String(error);
	return new ProviderError(`Handling OpenAI's answer failed: ${detail}`, {
		retryable: false,
		cause: error,
	});
}

function toGenerateError(what: string, reply: VendorReply): ProviderError {
	const body = readErrorBody(reply, ErrorBodySchema)?.error;
	const vendorMessage = summarizeVendorText(body?.message);
	const code = body?.code ?? undefined;
	const message = `${what} answered HTTP ${reply.status}${code ? ` (${code})` : ""}${vendorMessage ? `: ${vendorMessage}` : ""}`;
	if (
		code === "moderation_blocked" ||
		code === "content_policy_violation" ||
		(reply.status === 400 && isModerationText(vendorMessage))
	) {
		return new ProviderError(message, { retryable: false, userMessage: PROVIDER_MESSAGES.refused });
	}
	if (code === "insufficient_quota" || code === "billing_hard_limit_reached") {
		return new ProviderError(message, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.noCredit,
		});
	}
	// OpenAI may say outright whether a retry helps; its own client obeys this header first.
	const shouldRetry = reply.headers.get("x-should-retry");
	if (shouldRetry === "true" || shouldRetry === "false") {
		const isRetryable = shouldRetry === "true";
		return new ProviderError(message, {
			retryable: isRetryable,
			...(isRetryable ? { retryAfterMs: readRetryAfterMs(reply.headers) } : {}),
			userMessage:
				reply.status === 429 ? PROVIDER_MESSAGES.busy : (vendorMessage ?? `HTTP ${reply.status}`),
			isBusy: isRetryable && reply.status === 429,
		});
	}
	return toHttpStatusError(what, reply, vendorMessage, "start", message);
}
