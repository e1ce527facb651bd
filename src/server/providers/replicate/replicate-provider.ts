import { z } from "zod";
import { toRatioParam } from "../../../shared/generations/aspect-ratios";
import { cancelEach, createBatchedJobs } from "../shared/batches";
import {
	describeHostedImageCapabilities,
	ECHOED_IMAGE_BYTES,
	type HostedImageInputs,
	isUpscale,
	toHostedImageFields,
} from "../shared/hosted-image-input";
import { defineBatchJobIds } from "../shared/job-id";
import { readLogProgress, splitLogLines } from "../shared/log-progress";
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
	REPLICATE_DEFAULT_BASE_URL,
	REPLICATE_DEFAULT_IMAGES_PER_PREDICTION,
	REPLICATE_DEFAULT_MODEL,
	REPLICATE_DEFAULT_SEED_INPUT,
	REPLICATE_MODEL_PATTERN,
} from "./replicate-config";

export type ReplicateProviderOptions = VendorRequestSettings & {
	apiToken: string;
	/**
	 * `owner/name` for an official model (created at `/models/owner/name/predictions`), or a
	 * version (`owner/name:<hash>` or a bare 64-hex hash) created at `/predictions`.
	 */
	model?: string;
	/** The API root, `https://api.replicate.com/v1` by default. */
	baseUrl?: string;
	/** `num_outputs` per prediction (1-4); with 1 it is not sent and one prediction is made per image. */
	imagesPerPrediction?: number;
	/** Extra `input` fields for the model, such as `{ "output_format": "png" }`. */
	extraInput?: Record<string, unknown>;
	/** The model's seed input, `seed` by default; null for a model that takes none. */
	seedInput?: string | null;
	/** The model's negative prompt input (SDXL's `negative_prompt`); none is offered without it. */
	negativePromptInput?: string;
	/** Sent as `Cancel-After`, so a prediction nobody follows any more stops on Replicate's side. */
	cancelAfterMs?: number;
	/**
	 * The inputs of a model that takes an image (img2img, or an upscaler with `upscale`); the
	 * image is sent in `image` as a data URI. Without it the model makes images from prompts only.
	 */
	imageInputs?: HostedImageInputs;
};

const MAX_RESPONSE_BYTES = 1024 * 1024;
const OFFICIAL_MODEL_PATTERN = /^[\w.-]+\/[\w.-]+$/;

const PredictionSchema = z.object({
	id: z.string().min(1),
	status: z.string(),
	output: z.union([z.string(), z.array(z.unknown())]).nullish(),
	error: z.unknown().optional(),
	logs: z.string().nullish(),
	data_removed: z.boolean().optional(),
	urls: z.object({ get: z.string().optional(), cancel: z.string().optional() }).nullish(),
});
type Prediction = z.infer<typeof PredictionSchema>;

const ProblemSchema = z.object({
	title: z.string().optional().catch(undefined),
	detail: z.unknown().optional(),
});

const PredictionRefSchema = z.object({ id: z.string(), get: z.string(), cancel: z.string() });
type PredictionRef = z.infer<typeof PredictionRefSchema>;

/** The saved job id: every prediction of the generation with the URLs Replicate gave for it. */
const REPLICATE_JOB_IDS = defineBatchJobIds("Replicate", "predictions", PredictionRefSchema);

/**
 * Replicate's predictions API: one prediction of `num_outputs` images (or one per image for
 * models that make one), with the generation's seed and negative prompt in the model's inputs
 * named for them, followed at `urls.get` and cancelled at `urls.cancel`. The token goes to
 * the API's origin only; output files are public URLs the worker downloads.
 */
export function createReplicateProvider(options: ReplicateProviderOptions): ImageProvider {
	const baseUrl = parseBaseUrl(options.baseUrl ?? REPLICATE_DEFAULT_BASE_URL, "REPLICATE_BASE_URL");
	const model = parseModel(options.model ?? REPLICATE_DEFAULT_MODEL);
	const imagesPerPrediction = Math.min(
		4,
		Math.max(1, options.imagesPerPrediction ?? REPLICATE_DEFAULT_IMAGES_PER_PREDICTION),
	);
	const seedInput =
		options.seedInput === undefined ? REPLICATE_DEFAULT_SEED_INPUT : options.seedInput;
	const negativePromptInput = options.negativePromptInput;
	// The token goes to the API's own origin only, never to a host an answer names.
	const send = createVendorClient(options, {
		// A prediction echoes its input, the image's data URI included.
		maxResponseBytes: MAX_RESPONSE_BYTES + (options.imageInputs ? ECHOED_IMAGE_BYTES : 0),
		credentials: {
			origin: baseUrl.origin,
			headers: { authorization: `Bearer ${options.apiToken}` },
		},
	});

	/** What a prediction from a prompt sends (an img2img one too, with its image added). */
	function textInput(input: GenerationInput, size: number, index: number): Record<string, unknown> {
		return {
			...options.extraInput,
			prompt: input.prompt,
			aspect_ratio: toRatioParam(input.aspectRatio),
			...(imagesPerPrediction > 1 ? { num_outputs: size } : {}),
			// One seed makes a prediction's whole set; each further prediction takes the next seed.
			...(seedInput && input.seed !== null
				? { [seedInput]: seedForRequest(input.seed, index) }
				: {}),
			...(negativePromptInput && input.negativePrompt !== null
				? { [negativePromptInput]: input.negativePrompt }
				: {}),
		};
	}

	async function createPrediction(
		input: GenerationInput,
		{ size, index }: { size: number; index: number },
		callOptions: ProviderCallOptions | undefined,
	): Promise<PredictionRef> {
		const url = resolveBelow(
			baseUrl,
			model.kind === "official" ? `models/${model.name}/predictions` : "predictions",
		);
		const what = `Creating a Replicate prediction at ${describeUrl(url)}`;
		const imageFields = toHostedImageFields(input, options.imageInputs);
		// An upscaler takes the image and its factor only: prompt and ratio are not its inputs.
		const modelInput = isUpscale(input)
			? { ...options.extraInput, ...imageFields }
			: {
					...textInput(input, size, index),
					...imageFields,
				};
		const reply = await send(
			what,
			{
				method: "POST",
				url,
				headers: options.cancelAfterMs
					? { "cancel-after": `${Math.ceil(options.cancelAfterMs / 60_000)}m` }
					: {},
				json:
					model.kind === "official"
						? { input: modelInput }
						: { version: model.version, input: modelInput },
			},
			callOptions,
		);
		if (!reply.ok) throw toCreateError(what, reply);
		// Not retried: the prediction may exist (and be billed) even when its answer is unreadable.
		const prediction = parseReply(what, reply, PredictionSchema, { retryable: false });
		return {
			id: prediction.id,
			get: resolvePredictionUrl(prediction.urls?.get, `predictions/${prediction.id}`),
			cancel: resolvePredictionUrl(prediction.urls?.cancel, `predictions/${prediction.id}/cancel`),
		};
	}

	function resolvePredictionUrl(answered: string | undefined, fallbackPath: string): string {
		if (answered === undefined) return resolveBelow(baseUrl, fallbackPath).href;
		return parseVendorUrl(answered, "Replicate's prediction URL").href;
	}

	async function checkPrediction(
		prediction: PredictionRef,
		callOptions: ProviderCallOptions | undefined,
	): Promise<ProviderJobState> {
		const url = parseVendorUrl(prediction.get, "The saved prediction URL");
		const what = `Polling Replicate prediction ${prediction.id}`;
		const reply = await send(what, { method: "GET", url }, callOptions);
		if (!reply.ok) throw toPollError(what, reply, readProblemDetail(reply));
		return toJobState(parseReply(what, reply, PredictionSchema, { retryable: true }));
	}

	async function cancelPrediction(
		prediction: PredictionRef,
		callOptions?: ProviderCallOptions,
	): Promise<void> {
		const url = parseVendorUrl(prediction.cancel, "The saved cancel URL");
		// Whatever the answer (a finished prediction stays as it was), there is nothing more to do.
		await send(
			`Cancelling Replicate prediction ${prediction.id}`,
			{ method: "POST", url },
			callOptions,
		);
	}

	return {
		name: "replicate",
		capabilities: {
			seed: seedInput !== null,
			negativePrompt: negativePromptInput !== undefined,
			qualities: [],
			maxCount: 4,
			...describeHostedImageCapabilities(options.imageInputs),
		},
		trustedPrivateHosts: listTrustedPrivateHosts(baseUrl),
		...createBatchedJobs({
			imagesPerRequest: imagesPerPrediction,
			submit: createPrediction,
			check: checkPrediction,
			cancel: cancelEach(cancelPrediction),
			jobIds: REPLICATE_JOB_IDS,
		}),
	};
}

type ReplicateModel = { kind: "official"; name: string } | { kind: "version"; version: string };

function parseModel(value: string): ReplicateModel {
	const model = value.trim();
	if (OFFICIAL_MODEL_PATTERN.test(model)) return { kind: "official", name: model };
	// Anything else the pattern allows is a version: `owner/name:<hash>` or a bare hash.
	if (REPLICATE_MODEL_PATTERN.test(model)) return { kind: "version", version: model };
	throw new Error(
		`REPLICATE_MODEL must be owner/name, owner/name:<version> or a 64-hex version: ${JSON.stringify(value)}`,
	);
}

function toJobState(prediction: Prediction): ProviderJobState {
	const vendorError = describeVendorError(prediction.error);
	switch (prediction.status) {
		case "succeeded":
			return toSucceededState(prediction);
		case "failed":
			return {
				status: "failed",
				message: isModerationText(vendorError)
					? PROVIDER_MESSAGES.refused
					: PROVIDER_MESSAGES.failed,
				reason: `Replicate prediction ${prediction.id} failed: ${vendorError ?? "no error given"}`,
			};
		case "canceled":
			return {
				status: "failed",
				message: PROVIDER_MESSAGES.cancelled,
				reason: `Replicate prediction ${prediction.id} was canceled`,
			};
		case "aborted":
			return {
				status: "failed",
				message: PROVIDER_MESSAGES.timedOut,
				reason: `Replicate prediction ${prediction.id} was aborted: its Cancel-After deadline passed before it started`,
			};
		case "starting":
			// Booting or waiting for a machine, or setting the model up: no step to say yet.
			return { status: "running", stage: "starting" };
		default: {
			// processing (the model's predict() at work), or a status newer than this adapter:
			// running, with what its logs say of the steps.
			return {
				status: "running",
				stage: "running",
				...readLogProgress(splitLogLines(prediction.logs)),
			};
		}
	}
}

function toSucceededState(prediction: Prediction): ProviderJobState {
	const output = prediction.output;
	if (prediction.data_removed || output === null || output === undefined) {
		return {
			status: "failed",
			message: PROVIDER_MESSAGES.expired,
			reason: `Replicate prediction ${prediction.id} succeeded but its output was removed (data_removed: ${prediction.data_removed ?? "absent"})`,
		};
	}
	const images: ImageSource[] = [];
	for (const item of typeof output === "string" ? [output] : output) {
		if (typeof item !== "string" || !URL.canParse(item)) continue;
		const url = new URL(item);
		if (url.protocol === "http:" || url.protocol === "https:") {
			images.push({ kind: "url", url: url.href });
		}
	}
	if (images.length === 0) {
		return {
			status: "failed",
			message: PROVIDER_MESSAGES.noImages,
			reason: `Replicate prediction ${prediction.id} succeeded without a usable output URL`,
		};
	}
	return { status: "completed", images };
}

function describeVendorError(error: unknown): string | undefined {
	if (error === null || error === undefined) return undefined;
	return typeof error === "string" ? error : JSON.stringify(error);
}

function readProblemDetail(reply: VendorReply): string | undefined {
	const problem = readErrorBody(reply, ProblemSchema);
	if (!problem) return undefined;
	const detail = typeof problem.detail === "string" ? problem.detail : undefined;
	return summarizeVendorText(detail) ?? summarizeVendorText(problem.title);
}

function toCreateError(what: string, reply: VendorReply): ProviderError {
	const detail = readProblemDetail(reply);
	const message = `${what} answered HTTP ${reply.status}${detail ? `: ${detail}` : ""}`;
	if (isModerationText(detail) && reply.status < 500) {
		return new ProviderError(message, { retryable: false, userMessage: PROVIDER_MESSAGES.refused });
	}
	// Out of credit shows up as 402, or as a 429 that talks about credit: waiting does not help.
	if (reply.status === 402 || (reply.status === 429 && /credit|billing/i.test(detail ?? ""))) {
		return new ProviderError(message, {
			retryable: false,
			userMessage: PROVIDER_MESSAGES.noCredit,
		});
	}
	return toHttpStatusError(what, reply, detail, "start");
}
