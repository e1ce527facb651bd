import type { AspectRatio } from "../../shared/generations/aspect-ratios";
import { GENERATION_MESSAGES } from "../../shared/generations/generation-flow";
import type { Quality } from "../../shared/generations/generation-settings";
import type { UploadContentType } from "../../shared/image-input/image-input";

/**
 * What a generation asks a provider for. `prompt` never contains an `--ar` flag. The settings are
 * only ever set where the model offers them (its capabilities, narrowed by the catalogue): `seed`
 * is null when the model takes none (a random seed is drawn when the generation is created, so it
 * is never "random" here), `negativePrompt` and `quality` null when not asked for.
 */
export type GenerationInput = {
	prompt: string;
	aspectRatio: AspectRatio;
	/** 1 to 4. */
	count: number;
	seed: number | null;
	negativePrompt: string | null;
	quality: Quality | null;
	/**
	 * The image the generation starts from (a variation, an edit, an upscale); absent when it is
	 * made from the prompt alone. Only ever set for a model whose capabilities take it.
	 */
	image?: ImageInstruction;
};

/**
 * An image a generation starts from, as Atelier stored it: checked by content (PNG, JPEG or WebP),
 * its metadata (EXIF, GPS) removed. Loaded from storage by the run, never from the person's URL.
 */
export type InputImage = {
	data: Uint8Array;
	contentType: UploadContentType;
	width: number;
	height: number;
	/**
	 * A short-lived signed URL the service may fetch these bytes from, set by the run for a
	 * provider that `fetchesImageUrls` (storage/signed-urls.ts); absent otherwise.
	 */
	url?: string;
};

/**
 * What a generation does with its image. `reference` makes new images from it (Vary and Edit):
 * `strength` from 0 to 1 is how far the result may move from the reference, as image-to-image
 * "denoise" means it (0 keeps it, 1 ignores it). `upscale` makes one image `factor` times the
 * reference's width and height. `region` repaints the part of `image` that `mask` covers (Edit
 * region, and Expand, whose image is the source in its new frame and whose mask is the new area):
 * `mask` is the one mask Atelier keeps, a greyscale PNG of the image's size, white where it may
 * change, which each adapter converts to its service's convention (docs/decisions/033-region-edit.md).
 */
export type ImageInstruction =
	| { kind: "reference"; image: InputImage; strength: number }
	| { kind: "upscale"; image: InputImage; factor: number }
	| { kind: "region"; image: InputImage; mask: InputImage };

/** What an adapter can honour; a catalogue entry may narrow it, never widen it. */
export type ProviderCapabilities = {
	/** Whether the same seed and input make the same images (or at least the service uses it). */
	seed: boolean;
	negativePrompt: boolean;
	/** Empty when the service has no quality setting. */
	qualities: readonly Quality[];
	/** The most images one generation may ask for, up to 4. */
	maxCount: number;
	/**
	 * The quality used when a generation names none (one of `qualities`), recorded with it; absent
	 * when the service chooses by itself (OpenAI's `auto`).
	 */
	defaultQuality?: Quality;
	/** Whether it makes images from a prompt (false for an upscaler that only takes an image). */
	textToImage: boolean;
	/** Whether it takes a reference image (variations, edits). */
	imageInput: boolean;
	/**
	 * Whether it honours a reference's strength (how far the result may move from the image): false
	 * where the service decides that by itself (OpenAI's edit endpoint takes no strength) or takes
	 * no image at all.
	 */
	referenceStrength: boolean;
	/** The factors it can upscale an image by (2, 4); empty when it cannot. */
	upscaleFactors: readonly number[];
	/**
	 * Whether its upscale only resamples the image (Lanczos, say): larger, with no added detail, as
	 * the offline engine's does; false for an upscaler that adds detail, and where it cannot upscale.
	 */
	upscaleResamples: boolean;
	/** Whether it repaints the region of an image a mask covers (Edit region). */
	mask: boolean;
	/** Whether it paints beyond an image's frame (Expand): a mask over the new area. */
	outpaint: boolean;
	/**
	 * The most pixels an expanded frame may have on it; larger frames are scaled down as a whole.
	 * MAX_UPLOAD_PIXELS where absent.
	 */
	maxRegionPixels?: number;
};

/** The capabilities that say what a provider does with an image. */
export type ImageCapabilities = Pick<
	ProviderCapabilities,
	| "textToImage"
	| "imageInput"
	| "referenceStrength"
	| "upscaleFactors"
	| "upscaleResamples"
	| "mask"
	| "outpaint"
>;

/** What a provider can do with images when it says nothing: make them from a prompt only. */
export const TEXT_ONLY: ImageCapabilities = {
	textToImage: true,
	imageInput: false,
	referenceStrength: false,
	upscaleFactors: [],
	upscaleResamples: false,
	mask: false,
	outpaint: false,
};

/** A provider that honours no setting beyond the prompt, the ratio and up to four images. */
export const PLAIN_CAPABILITIES: ProviderCapabilities = {
	seed: false,
	negativePrompt: false,
	qualities: [],
	maxCount: 4,
	...TEXT_ONLY,
};

/** A setting a provider refuses before a generation is created: the field and why. */
export type InputProblem = {
	field:
		| "seed"
		| "negativePrompt"
		| "quality"
		| "count"
		| "reference"
		| "strength"
		| "factor"
		| "mask"
		| "expand";
	message: string;
};

/** Where a finished image can be had: a URL to download, or the bytes themselves. */
export type ImageSource =
	| { kind: "url"; url: string }
	| { kind: "bytes"; data: Uint8Array; contentType: string };

/** A frame of the image being made, as a provider shows it while it works (a sampler's preview). */
export type PreviewFrame = { data: Uint8Array; contentType: string };

/**
 * What a provider says of a job while it works, every field where it knows it. `stage` is where
 * the job is when the provider says so: `starting` while the service gets ready for it (Replicate
 * booting a machine), `running` once it works on it, steps or not (news without a stage counts as
 * running). `progress` is the percent of the whole generation (0 to 100); `step` of `steps` the
 * provider's own count (sampler steps, or images drawn); `queuePosition` how many of the
 * provider's own jobs run before this one (0 when it is next), which makes the stage `queued`.
 */
export type ProviderProgress = {
	stage?: "starting" | "running";
	progress?: number;
	step?: number;
	steps?: number;
	queuePosition?: number;
	preview?: PreviewFrame;
};

export type ProviderJobState =
	| ({ status: "running" } & ProviderProgress)
	| { status: "completed"; images: ImageSource[] }
	| { status: "failed"; message: string; reason?: string };

/** A provider job as the worker knows it: the provider's id plus the input that started it. */
export type ProviderJob = { jobId: string; input: GenerationInput };

export type ProviderCallOptions = {
	signal?: AbortSignal;
	/**
	 * Where a provider reports progress as it happens, between checks (the offline engine drawing
	 * each image); a polled provider may instead put it on the running state `check` returns.
	 */
	onProgress?: (progress: ProviderProgress) => void;
};

/** What `watch` is given: the run's signal and where to report. */
export type ProviderWatchOptions = {
	signal: AbortSignal;
	onProgress: (progress: ProviderProgress) => void;
};

/**
 * An image service. `start` is called once per generation; the job id it returns is saved at once,
 * so after a restart the worker calls `check` with that id instead of starting again.
 */
export interface ImageProvider {
	readonly name: string;
	/** Hosts this provider serves images from on a private network (self-hosted services). */
	readonly trustedPrivateHosts?: readonly string[];
	readonly capabilities: ProviderCapabilities;
	/**
	 * Whether the service is sent its images as URLs to fetch rather than inline: the run stores
	 * each image it starts a job with and gives it a signed `url` (InputImage) first.
	 */
	readonly fetchesImageUrls?: boolean;
	/**
	 * Checks settings against limits only the service knows (a ComfyUI seed input's range), before
	 * the generation is created; a problem is answered 400 naming the field.
	 */
	checkInput?(input: GenerationInput, options?: ProviderCallOptions): Promise<InputProblem | null>;
	/**
	 * A random seed (0 to MAX_SEED) the service accepts, for a generation that asks for a random
	 * one, where the service takes a narrower range than that (a ComfyUI seed input's limits).
	 */
	randomSeed?(): Promise<number>;
	start(input: GenerationInput, options?: ProviderCallOptions): Promise<{ jobId: string }>;
	check(job: ProviderJob, options?: ProviderCallOptions): Promise<ProviderJobState>;
	cancel?(job: ProviderJob, options?: ProviderCallOptions): Promise<void>;
	/**
	 * Listens for a job's progress pushed by the service (ComfyUI's WebSocket) while the worker
	 * follows it with `check`, which alone decides when it ends: a push channel that cannot connect
	 * costs the progress only. Returns the stop.
	 */
	watch?(job: ProviderJob, options: ProviderWatchOptions): () => void;
}

/**
 * A provider failure. `retryable` failures (429, 5xx, network) are tried again within the
 * generation timeout; others fail the generation with `userMessage`.
 */
export class ProviderError extends Error {
	readonly retryable: boolean;
	readonly retryAfterMs: number | undefined;
	readonly userMessage: string;
	/** The service said it is overloaded (HTTP 429): the person is told it is busy while we wait. */
	readonly isBusy: boolean;
	/**
	 * The service could not be reached at all, while the job it holds may well go on: it is tried
	 * with growing back-off until the generation's timeout, and the person is told meanwhile.
	 */
	readonly isUnreachable: boolean;

	constructor(
		message: string,
		options: {
			retryable: boolean;
			retryAfterMs?: number;
			userMessage?: string;
			isBusy?: boolean;
			isUnreachable?: boolean;
			cause?: unknown;
		},
	) {
		super(message, { cause: options.cause });
		this.name = "ProviderError";
		this.retryable = options.retryable;
		this.retryAfterMs = options.retryAfterMs;
		this.userMessage = options.userMessage ?? GENERATION_MESSAGES.failed;
		this.isBusy = options.isBusy ?? false;
		this.isUnreachable = options.isUnreachable ?? false;
	}
}
