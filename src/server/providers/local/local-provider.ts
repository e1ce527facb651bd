import { randomUUID } from "node:crypto";
import {
	type GenerationInput,
	type ImageProvider,
	type ProviderCallOptions,
	type ProviderCapabilities,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
	type ProviderProgress,
} from "../types";
import { renderImages } from "./render";

type LocalProviderOptions = {
	/** How long a job reports "running" before it renders, so progress can be seen in the UI. */
	delayMs: number;
	/** Milliseconds clock; injectable so tests need not wait. */
	now?: () => number;
};

type LocalJob = {
	input: GenerationInput;
	startedAt: number;
	/** The one render of this job, shared by every check that arrives while it runs. */
	result?: Promise<ProviderJobState>;
};

/**
 * The engine is deterministic, so a seed repeats a render byte for byte; a negative prompt leaves
 * out what its scenes can leave out (negative-prompt.ts); it has no quality levels. From an image
 * it repaints the image's composition and palette with its own render (render.ts), and its upscale
 * resamples the image: it adds no detail.
 */
export const LOCAL_CAPABILITIES: ProviderCapabilities = {
	seed: true,
	negativePrompt: true,
	qualities: [],
	maxCount: 4,
	textToImage: true,
	imageInput: true,
	referenceStrength: true,
	upscaleFactors: [2, 4],
	// A Lanczos resample (image-input.ts): said so wherever Upscale is offered.
	upscaleResamples: true,
	// Repaints only the masked pixels, and paints an expansion's new area (image-input.ts).
	mask: true,
	outpaint: true,
	// Its render is drawn at a megapixel and stretched: a larger frame would only be slower.
	maxRegionPixels: 16_000_000,
};

const JOB_ID_PATTERN = /^local_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Jobs nobody checks any more (the generation was abandoned) are dropped after this long; a check
// that comes later still succeeds, because an unknown job renders from its input.
const ABANDONED_JOB_MS = 15 * 60 * 1000;

/**
 * The built-in offline engine: renders generative art from the prompt on this machine. Jobs live
 * in memory only; since rendering is deterministic (the prompt, ratio, count, seed, negative
 * prompt and starting image decide every pixel), a job lost to a restart renders the same images
 * again from its input.
 * Its progress is its real stages: the wait (the first half of the percent), then each image drawn,
 * reported as step i of count as it is.
 */
export function createLocalProvider(options: LocalProviderOptions): ImageProvider {
	const now = options.now ?? Date.now;
	const delayMs = Math.max(0, options.delayMs);
	const jobs = new Map<string, LocalJob>();

	const forgetAbandoned = (): void => {
		const cutoff = now() - delayMs - ABANDONED_JOB_MS;
		for (const [jobId, job] of jobs) {
			if (job.startedAt < cutoff) jobs.delete(jobId);
		}
	};

	return {
		name: "local",
		capabilities: LOCAL_CAPABILITIES,

		async start(input) {
			forgetAbandoned();
			const jobId = `local_${randomUUID()}`;
			jobs.set(jobId, { input, startedAt: now() });
			return { jobId };
		},

		async check(job: ProviderJob, callOptions?: ProviderCallOptions) {
			assertJobId(job.jobId);
			forgetAbandoned();
			let entry = jobs.get(job.jobId);
			if (!entry) {
				// Unknown after a restart (or cancelled): render now, without waiting out the delay again.
				entry = { input: job.input, startedAt: now() - delayMs };
				jobs.set(job.jobId, entry);
			}
			const elapsed = now() - entry.startedAt;
			if (elapsed < delayMs) {
				return { status: "running", progress: toProgress(elapsed, delayMs) };
			}
			entry.result ??= renderJob(entry.input, callOptions?.onProgress);
			const state = await entry.result;
			// The caller stores the images now; keeping the bytes here would only hold memory.
			if (jobs.get(job.jobId) === entry) jobs.delete(job.jobId);
			return state;
		},

		async cancel(job: ProviderJob) {
			jobs.delete(job.jobId);
		},
	};
}

function assertJobId(jobId: string): void {
	if (!JOB_ID_PATTERN.test(jobId)) {
		throw new ProviderError(`Not a local engine job id: ${JSON.stringify(jobId.slice(0, 80))}`, {
			retryable: false,
		});
	}
}

/**
 * The engine's stages as a percent of the whole job: its wait fills the first half, and each image
 * drawn an equal share of the second.
 */
const WAIT_SHARE = 50;

function toProgress(elapsed: number, delayMs: number): number {
	return Math.min(WAIT_SHARE - 1, Math.max(1, Math.round((elapsed / delayMs) * WAIT_SHARE)));
}

async function renderJob(
	input: GenerationInput,
	onProgress: ((progress: ProviderProgress) => void) | undefined,
): Promise<ProviderJobState> {
	try {
		const images = await renderImages(input, (drawn, count) =>
			onProgress?.({
				step: drawn,
				steps: count,
				progress: WAIT_SHARE + Math.round(((100 - WAIT_SHARE) * drawn) / count),
			}),
		);
		return {
			status: "completed",
			images: images.map((image) => ({
				kind: "bytes",
				data: image.data,
				contentType: image.contentType,
			})),
		};
	} catch (error) {
		// A render failure is a bug, not a state the worker should retry into: report it as failed.
		const detail = error instanceof Error ? error.message : String(error);
		return { status: "failed", message: `The built-in engine could not render: ${detail}` };
	}
}
