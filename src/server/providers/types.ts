import type { AspectRatio } from "../../shared/aspect-ratios";
import { GENERATION_MESSAGES } from "../../shared/generation-flow";

/** What a generation asks a provider for. `prompt` never contains an `--ar` flag. */
export type GenerationInput = {
	prompt: string;
	aspectRatio: AspectRatio;
	count: number;
};

/** Where a finished image can be had: a URL to download, or the bytes themselves. */
export type ImageSource =
	| { kind: "url"; url: string }
	| { kind: "bytes"; data: Uint8Array; contentType: string };

export type ProviderJobState =
	| { status: "running"; progress?: number }
	| { status: "completed"; images: ImageSource[] }
	| { status: "failed"; message: string; reason?: string };

/** A provider job as the worker knows it: the provider's id plus the input that started it. */
export type ProviderJob = { jobId: string; input: GenerationInput };

export type ProviderCallOptions = { signal?: AbortSignal };

/**
 * An image service. `start` is called once per generation; the job id it returns is saved at once,
 * so after a restart the worker calls `check` with that id instead of starting again.
 */
export interface ImageProvider {
	readonly name: string;
	/** Hosts this provider serves images from on a private network (self-hosted services). */
	readonly trustedPrivateHosts?: readonly string[];
	start(input: GenerationInput, options?: ProviderCallOptions): Promise<{ jobId: string }>;
	check(job: ProviderJob, options?: ProviderCallOptions): Promise<ProviderJobState>;
	cancel?(job: ProviderJob, options?: ProviderCallOptions): Promise<void>;
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
