import type {
	GenerationInput,
	ImageProvider,
	ImageSource,
	ProviderCallOptions,
	ProviderJobState,
	ProviderProgress,
} from "../types";
import type { BatchJobIds } from "./job-id";

/**
 * How many images each vendor request asks for: `count` split into requests of at most
 * `perRequest` (one request of 4 where the vendor batches, four of 1 where it makes one at a time).
 */
function splitIntoBatches(count: number, perRequest: number): number[] {
	const size = Math.max(1, Math.floor(perRequest));
	const batches: number[] = [];
	for (let remaining = Math.max(1, count); remaining > 0; remaining -= size) {
		batches.push(Math.min(size, remaining));
	}
	return batches;
}

/**
 * Starts one vendor job per batch, in order. When one fails, the jobs already started are
 * cancelled before the error is passed on: the worker will start the whole set again, and
 * orphans would be paid for without ever being used.
 */
async function startBatches<Started>(
	batches: readonly number[],
	start: (size: number, index: number) => Promise<Started>,
	cancel: (started: Started) => Promise<void>,
): Promise<Started[]> {
	const started: Started[] = [];
	try {
		for (const [index, size] of batches.entries()) started.push(await start(size, index));
	} catch (error) {
		await Promise.all(started.map((job) => cancel(job).catch(() => undefined)));
		throw error;
	}
	return started;
}

/**
 * One state for a generation made of several vendor jobs: failed as soon as one failed,
 * completed with every image once all completed, running (with the share done) otherwise.
 */
function combineBatchStates(states: readonly ProviderJobState[]): ProviderJobState {
	const [only] = states;
	if (states.length === 1 && only) return only;
	const failed = states.find((state) => state.status === "failed");
	if (failed) return failed;
	const images: ImageSource[] = [];
	let progressSum = 0;
	const running: ProviderProgress[] = [];
	for (const state of states) {
		if (state.status === "completed") {
			images.push(...state.images);
			progressSum += 100;
		} else if (state.status === "running") {
			running.push(state);
			progressSum += state.progress ?? 0;
		}
	}
	if (running.length === 0) return { status: "completed", images };
	// The request being worked on speaks for the steps and the preview (one at work rather than
	// one still starting); the set is as far in the provider's queue as its nearest request, and
	// waits only while none of them has started.
	const started = running.filter((state) => state.queuePosition === undefined);
	const active = started.find((state) => state.stage !== "starting") ?? started[0];
	const positions = running.flatMap((state) =>
		state.queuePosition === undefined ? [] : [state.queuePosition],
	);
	// A share is known once one request finished or one reports its own.
	const isShareKnown =
		running.length < states.length || running.some((state) => state.progress !== undefined);
	// The set is at work once one of its requests has finished, else as its active one says.
	const stage = running.length < states.length ? "running" : active?.stage;
	return {
		status: "running",
		...(isShareKnown ? { progress: Math.round(progressSum / Math.max(1, states.length)) } : {}),
		...(active
			? {
					...(stage !== undefined ? { stage } : {}),
					...(active.step !== undefined ? { step: active.step } : {}),
					...(active.steps !== undefined ? { steps: active.steps } : {}),
					...(active.preview ? { preview: active.preview } : {}),
				}
			: { queuePosition: Math.min(...positions) }),
	};
}

/** A vendor's requests as a generation made of several of them needs them. */
type VendorRequests<Ref> = {
	/**
	 * The most images one request asks for: a generation's count is split into requests of it
	 * (per generation where it depends on what is asked: an upscale is one image).
	 */
	imagesPerRequest: number | ((input: GenerationInput) => number);
	/** Checks one request after another rather than all at once (a GPU box is not a CDN). */
	isCheckedInTurn?: boolean;
	/**
	 * Makes one request for `batch.size` images; `batch.index` counts the generation's requests
	 * from 0 (each derives its own seed from it). What it returns is saved in the job id.
	 */
	submit(
		input: GenerationInput,
		batch: { size: number; index: number },
		callOptions?: ProviderCallOptions,
	): Promise<Ref>;
	check(
		ref: Ref,
		callOptions: ProviderCallOptions | undefined,
		generation: { input: GenerationInput; requestCount: number },
	): Promise<ProviderJobState>;
	/** Stops requests; called without the caller's signal to clean up after a failed start. */
	cancel(refs: readonly Ref[], callOptions?: ProviderCallOptions): Promise<void>;
	/** How the requests are saved in the job id, and read back (refusing another vendor's). */
	jobIds: BatchJobIds<Ref>;
};

/**
 * `start`, `check` and `cancel` over a set of vendor requests: the set is started together
 * (cancelling what was started if a later one fails), reported as one state, and stopped as a
 * whole once one of them has failed, since the rest would only cost money.
 */
export function createBatchedJobs<Ref>(
	requests: VendorRequests<Ref>,
): Required<Pick<ImageProvider, "start" | "check" | "cancel">> {
	async function checkAll(
		refs: Ref[],
		generation: { input: GenerationInput },
		callOptions?: ProviderCallOptions,
	) {
		const context = { input: generation.input, requestCount: refs.length };
		if (!requests.isCheckedInTurn) {
			return Promise.all(refs.map((ref) => requests.check(ref, callOptions, context)));
		}
		const states: ProviderJobState[] = [];
		for (const ref of refs) states.push(await requests.check(ref, callOptions, context));
		return states;
	}

	return {
		async start(input, callOptions) {
			const refs = await startBatches(
				splitIntoBatches(
					input.image?.kind === "upscale" ? 1 : input.count,
					typeof requests.imagesPerRequest === "function"
						? requests.imagesPerRequest(input)
						: requests.imagesPerRequest,
				),
				(size, index) => requests.submit(input, { size, index }, callOptions),
				(started) => requests.cancel([started]),
			);
			return { jobId: requests.jobIds.encode(refs) };
		},

		async check(job, callOptions) {
			const refs = requests.jobIds.decode(job.jobId);
			const combined = combineBatchStates(await checkAll(refs, job, callOptions));
			if (combined.status === "failed" && refs.length > 1) {
				await requests.cancel(refs, callOptions).catch(() => undefined);
			}
			return combined;
		},

		async cancel(job, callOptions) {
			await requests.cancel(requests.jobIds.decode(job.jobId), callOptions);
		},
	};
}

/**
 * A set's cancel made of one request's: every request is asked, and once all have answered the
 * first failure, if any, is passed on.
 */
export function cancelEach<Ref>(
	cancelOne: (ref: Ref, callOptions?: ProviderCallOptions) => Promise<void>,
): (refs: readonly Ref[], callOptions?: ProviderCallOptions) => Promise<void> {
	return async (refs, callOptions) => {
		const outcomes = await Promise.allSettled(refs.map((ref) => cancelOne(ref, callOptions)));
		const failure = outcomes.find((outcome) => outcome.status === "rejected");
		if (failure) throw failure.reason;
	};
}
