import { z } from "zod";
import { type AspectRatio, toRatioParam } from "../../../shared/generations/aspect-ratios";
import { cancelEach, createBatchedJobs } from "../shared/batches";
import {
	describeHostedImageCapabilities,
	type HostedImageInputs,
	isUpscale,
	toHostedImageFields,
} from "../shared/hosted-image-input";
import { defineBatchJobIds } from "../shared/job-id";
import { readLogProgress } from "../shared/log-progress";
import { PIXEL_SIZES } from "../shared/pixel-sizes";
import {
	isModerationText,
	PROVIDER_MESSAGES,
	summarizeVendorText,
} from "../shared/provider-messages";
import {
	describeUrl,
	listTrustedPrivateHosts,
	parseBaseUrl,
	parseVendorUrl,
	resolveBelow,
} from "../shared/provider-urls";
import { seedForRequest } from "../shared/seeds";
import {
	createVendorClient,
	parseReply,
	readErrorBody,
	toHttpStatusError,
	toPollError,
	type VendorReply,
	type VendorRequestSettings,
} from "../shared/vendor-request";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type ProviderCallOptions,
	ProviderError,
	type ProviderJobState,
} from "../types";
import {
	FAL_DEFAULT_IMAGES_PER_REQUEST,
	FAL_DEFAULT_MODEL,
	FAL_DEFAULT_QUEUE_URL,
	FAL_DEFAULT_RATIO_INPUT,
	FAL_DEFAULT_SEED_INPUT,
	FAL_MODEL_PATTERN,
	type FalRatioInput,
} from "./fal-config";

export type FalProviderOptions = VendorRequestSettings & {
	apiKey: string;
	/** The model id, with its sub-path: `fal-ai/flux/schnell`, `fal-ai/flux-pro/v1.1-ultra`. */
	model?: string;
	/** The queue's root, `https://queue.fal.run` by default. */
	queueUrl?: string;
	/**
	 * How the ratio is sent: `image_size` (a preset or `{width, height}`, the Flux dev/schnell
	 * way), `aspect_ratio` (`"16:9"`, the pro-ultra way), or `auto` to pick by the model's name.
	 */
	ratioInput?: FalRatioInput;
	/** `num_images` per request; with 1 it is not sent and one request is made per image. */
	imagesPerRequest?: number;
	/** Extra model input, such as `{ "output_format": "png" }`. */
	extraInput?: Record<string, unknown>;
	/** The model's seed input, `seed` by default; null for a model that takes none. */
	seedInput?: string | null;
	/** The model's negative prompt input (`negative_prompt` on SD 3.5); none is offered without it. */
	negativePromptInput?: string;
	/**
	 * The inputs of a model that takes an image (img2img, or an upscaler with `upscale`); the
	 * image is sent in `image` as a data URI. Without it the model makes images from prompts only.
	 */
	imageInputs?: HostedImageInputs;
};

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

// Flux's named sizes where one matches our ratio; the others get an explicit width and height.
const IMAGE_SIZE_PRESETS: Partial<Record<AspectRatio, string>> = {
	"--ar 1:1": "square_hd",
	"--ar 16:9": "landscape_16_9",
	"--ar 9:16": "portrait_16_9",
};

const SubmitResponseSchema = z.object({
	request_id: z.string().min(1),
	status_url: z.string().optional(),
	response_url: z.string().optional(),
	cancel_url: z.string().optional(),
});

const StatusResponseSchema = z.object({
	status: z.string(),
	queue_position: z.number().int().min(0).optional().catch(undefined),
	logs: z
		.array(z.object({ message: z.string() }).loose())
		.nullish()
		.catch(undefined),
});

const ResultSchema = z.object({
	images: z.array(
		z.object({
			url: z.string(),
			width: z.number().nullish(),
			height: z.number().nullish(),
			content_type: z.string().nullish(),
		}),
	),
	has_nsfw_concepts: z.array(z.boolean()).nullish(),
});

const ErrorBodySchema = z.object({
	detail: z
		.union([
			z.string(),
			z.array(
				z.object({
					loc: z.array(z.union([z.string(), z.number()])).optional(),
					msg: z.string().optional(),
				}),
			),
		])
		.optional()
		.catch(undefined),
	error_type: z.string().optional().catch(undefined),
});

const FalRequestRefSchema = z.object({
	id: z.string(),
	status: z.string(),
	response: z.string(),
	cancel: z.string(),
});
type FalRequestRef = z.infer<typeof FalRequestRefSchema>;

/** The saved job id: every queue request of the generation with the URLs fal gave for it. */
const FAL_JOB_IDS = defineBatchJobIds("fal", "requests", FalRequestRefSchema);

/**
 * fal.ai's queue API: submit to `{queue}/{model}`, follow `status_url` until COMPLETED, then read
 * `response_url`, whose own HTTP status says whether the model succeeded (COMPLETED covers
 * failures too). The result is read in the same check that sees COMPLETED, because fal keeps
 * result payloads for minutes only. The key goes to the queue's origin only.
 */
export function createFalProvider(options: FalProviderOptions): ImageProvider {
	const queueUrl = parseBaseUrl(options.queueUrl ?? FAL_DEFAULT_QUEUE_URL, "FAL_QUEUE_URL");
	const model = parseModel(options.model ?? FAL_DEFAULT_MODEL);
	const ratioInput = resolveRatioInput(options.ratioInput ?? FAL_DEFAULT_RATIO_INPUT, model);
	const imagesPerRequest = Math.max(1, options.imagesPerRequest ?? FAL_DEFAULT_IMAGES_PER_REQUEST);
	const seedInput = options.seedInput === undefined ? FAL_DEFAULT_SEED_INPUT : options.seedInput;
	const negativePromptInput = options.negativePromptInput;
	// The key goes to the queue's own origin only, never to a host an answer names.
	const send = createVendorClient(options, {
		maxResponseBytes: MAX_RESPONSE_BYTES,
		credentials: { origin: queueUrl.origin, headers: { authorization: `Key ${options.apiKey}` } },
	});

	async function submit(
		input: GenerationInput,
		{ size, index }: { size: number; index: number },
		callOptions: ProviderCallOptions | undefined,
	): Promise<FalRequestRef> {
		const url = resolveBelow(queueUrl, model);
		const what = `Submitting to fal at ${describeUrl(url)}`;
		const reply = await send(
			what,
			{
				method: "POST",
				url,
				json: isUpscale(input)
					? // An upscaler takes the image and its factor only: prompt and ratio are not its inputs.
						{ ...options.extraInput, ...toHostedImageFields(input, options.imageInputs) }
					: {
							...options.extraInput,
							prompt: input.prompt,
							...toRatioFields(input.aspectRatio, ratioInput),
							...(imagesPerRequest > 1 ? { num_images: size } : {}),
							// One seed makes a request's whole set; each further request takes the next seed.
							...(seedInput && input.seed !== null
								? { [seedInput]: seedForRequest(input.seed, index) }
								: {}),
							...(negativePromptInput && input.negativePrompt !== null
								? { [negativePromptInput]: input.negativePrompt }
								: {}),
							...toHostedImageFields(input, options.imageInputs),
						},
			},
			callOptions,
		);
		if (!reply.ok) throw toSubmitError(what, reply);
		// Not retried: the request may be queued (and billed) even when its answer is unreadable.
		const answer = parseReply(what, reply, SubmitResponseSchema, { retryable: false });
		// Status, result and cancel live under owner/app only, without the model's sub-path.
		const requestPath = `${model.split("/").slice(0, 2).join("/")}/requests/${answer.request_id}`;
		const resolve = (answered: string | undefined, path: string, label: string) =>
			answered === undefined
				? resolveBelow(queueUrl, path).href
				: parseVendorUrl(answered, label).href;
		return {
			id: answer.request_id,
			status: resolve(answer.status_url, `${requestPath}/status`, "fal's status_url"),
			response: resolve(answer.response_url, requestPath, "fal's response_url"),
			cancel: resolve(answer.cancel_url, `${requestPath}/cancel`, "fal's cancel_url"),
		};
	}

	/** The request's status, and once COMPLETED its result, read at once: fal keeps it briefly. */
	async function checkRequest(
		request: FalRequestRef,
		callOptions: ProviderCallOptions | undefined,
	): Promise<ProviderJobState> {
		const polling = `Polling fal request ${request.id}`;
		const statusUrl = parseVendorUrl(request.status, "The saved status URL");
		// With the logs: a model that prints its steps shows them.
		statusUrl.searchParams.set("logs", "1");
		const statusReply = await send(polling, { method: "GET", url: statusUrl }, callOptions);
		if (!statusReply.ok) throw toPollError(polling, statusReply, readErrorDetail(statusReply));
		const answer = parseReply(polling, statusReply, StatusResponseSchema, { retryable: true });
		// Waiting in fal's queue: its position shows as the queued stage (progress-reporter.ts).
		if (answer.status === "IN_QUEUE") {
			return answer.queue_position === undefined
				? { status: "running" }
				: { status: "running", queuePosition: answer.queue_position };
		}
		// IN_PROGRESS, or a status newer than this adapter: running (out of the queue, so no longer
		// queued even before its logs show a step), with what its logs say.
		if (answer.status !== "COMPLETED") {
			const lines = (answer.logs ?? []).map((entry) => entry.message);
			return { status: "running", stage: "running", ...readLogProgress(lines) };
		}

		const reading = `Reading fal result ${request.id}`;
		const responseUrl = parseVendorUrl(request.response, "The saved response URL");
		const resultReply = await send(reading, { method: "GET", url: responseUrl }, callOptions);
		if (!resultReply.ok) return toFailedResult(reading, resultReply);
		const result = parseReply(reading, resultReply, ResultSchema, { retryable: true });
		return toImagesState(request.id, result);
	}

	async function cancelRequest(
		request: FalRequestRef,
		callOptions?: ProviderCallOptions,
	): Promise<void> {
		const url = parseVendorUrl(request.cancel, "The saved cancel URL");
		// 202 CANCELLATION_REQUESTED, 400 ALREADY_COMPLETED or 404 NOT_FOUND: all mean we are done.
		await send(`Cancelling fal request ${request.id}`, { method: "PUT", url }, callOptions);
	}

	return {
		name: "fal",
		capabilities: {
			seed: seedInput !== null,
			negativePrompt: negativePromptInput !== undefined,
			qualities: [],
			maxCount: 4,
			...describeHostedImageCapabilities(options.imageInputs),
		},
		trustedPrivateHosts: listTrustedPrivateHosts(queueUrl),
		...createBatchedJobs({
			imagesPerRequest,
			submit,
			check: checkRequest,
			cancel: cancelEach(cancelRequest),
			jobIds: FAL_JOB_IDS,
		}),
	};
}

function parseModel(value: string): string {
	const model = value.trim().replace(/^\/+|\/+$/g, "");
	if (!FAL_MODEL_PATTERN.test(model)) {
		throw new Error(`FAL_MODEL must look like owner/app[/path]: ${JSON.stringify(value)}`);
	}
	return model;
}

// pro-ultra and its kin take `aspect_ratio`; the Flux dev/schnell family takes `image_size`.
function resolveRatioInput(setting: FalRatioInput, model: string): "image_size" | "aspect_ratio" {
	if (setting !== "auto") return setting;
	return /ultra/i.test(model) ? "aspect_ratio" : "image_size";
}

function toRatioFields(
	aspectRatio: AspectRatio,
	ratioInput: "image_size" | "aspect_ratio",
): Record<string, unknown> {
	if (ratioInput === "aspect_ratio") return { aspect_ratio: toRatioParam(aspectRatio) };
	return { image_size: IMAGE_SIZE_PRESETS[aspectRatio] ?? PIXEL_SIZES["1mp-exact"][aspectRatio] };
}

function toImagesState(requestId: string, result: z.infer<typeof ResultSchema>): ProviderJobState {
	const flags = result.has_nsfw_concepts ?? [];
	const images: ImageSource[] = [];
	let filtered = 0;
	for (const [index, image] of result.images.entries()) {
		// The safety checker's flagged images come back blacked out: they are not worth keeping.
		if (flags[index] === true) {
			filtered += 1;
			continue;
		}
		const url = URL.canParse(image.url) ? new URL(image.url) : undefined;
		if (url && (url.protocol === "http:" || url.protocol === "https:")) {
			images.push({ kind: "url", url: url.href });
		}
	}
	if (images.length > 0) return { status: "completed", images };
	if (filtered > 0) {
		return {
			status: "failed",
			message: PROVIDER_MESSAGES.refused,
			reason: `fal's safety checker flagged all ${filtered} images of request ${requestId}`,
		};
	}
	return {
		status: "failed",
		message: PROVIDER_MESSAGES.noImages,
		reason: `fal request ${requestId} completed without a usable image URL`,
	};
}

function readErrorDetail(reply: VendorReply): string | undefined {
	const body = readErrorBody(reply, ErrorBodySchema);
	const detail = body?.detail;
	if (typeof detail === "string") return summarizeVendorText(detail);
	const [first] = detail ?? [];
	if (!first) return undefined;
	const where = first.loc?.filter((part) => part !== "body").join(".");
	return summarizeVendorText(where ? `${where}: ${first.msg ?? "invalid"}` : first.msg);
}

function readErrorType(reply: VendorReply): string | undefined {
	return reply.headers.get("x-fal-error-type") ?? readErrorBody(reply, ErrorBodySchema)?.error_type;
}

function toSubmitError(what: string, reply: VendorReply): ProviderError {
	const detail = readErrorDetail(reply);
	const message = `${what} answered HTTP ${reply.status}${detail ? `: ${detail}` : ""}`;
	// An empty balance comes as 402 or as a 403 "User is locked. Reason: Exhausted balance".
	if (reply.status === 402 || (reply.status < 500 && /balance|credit/i.test(detail ?? ""))) {
		return new ProviderError(message, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.noCredit,
		});
	}
	if (reply.status === 403) {
		return new ProviderError(message, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.credentials,
		});
	}
	if (isModerationText(detail) && reply.status < 500) {
		return new ProviderError(message, { retryable: false, userMessage: PROVIDER_MESSAGES.refused });
	}
	return toHttpStatusError(what, reply, detail, "start");
}

/**
 * A non-2xx result after COMPLETED is mostly the model's own failure, kept by fal; only a bare
 * 429 or 5xx without fal's error type is a hiccup of the moment, worth reading again.
 */
function toFailedResult(what: string, reply: VendorReply): ProviderJobState {
	const detail = readErrorDetail(reply);
	const errorType = readErrorType(reply);
	const reason = `${what} answered HTTP ${reply.status}${errorType ? ` (${errorType})` : ""}${detail ? `: ${detail}` : ""}`;
	if (reply.status === 400 && /in progress/i.test(detail ?? "")) return { status: "running" };
	if (reply.status === 404 || reply.status === 410) {
		return { status: "failed", message: PROVIDER_MESSAGES.expired, reason };
	}
	if (reply.status === 504 && reply.headers.get("x-fal-request-timeout-type") === "user") {
		return { status: "failed", message: PROVIDER_MESSAGES.timedOut, reason };
	}
	if ((reply.status === 429 || reply.status >= 500) && errorType === undefined) {
		throw toHttpStatusError(what, reply, detail, "poll");
	}
	if (isModerationText(detail))
		return { status: "failed", message: PROVIDER_MESSAGES.refused, reason };
	if (/cancel/i.test(detail ?? "")) {
		return { status: "failed", message: PROVIDER_MESSAGES.cancelled, reason };
	}
	if (reply.status === 422 && detail) return { status: "failed", message: detail, reason };
	return { status: "failed", message: PROVIDER_MESSAGES.failed, reason };
}
