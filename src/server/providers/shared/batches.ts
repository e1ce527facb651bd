import type { ImageSource, ProviderJobState } from "../types";

/**
 * How many images each vendor request asks for: `count` split into requests of at most
 * `perRequest` (one request of 4 where the vendor batches, four of 1 where it makes one at a time).
 */
export function splitIntoBatches(count: number, perRequest: number): number[] {
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
export async function startBatches<Started>(
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
export function combineBatchStates(states: readonly ProviderJobState[]): ProviderJobState {
	const [only] = states;
	if (states.length === 1 && only) return only;
	const failed = states.find((state) => state.status === "failed");
	if (failed) return failed;
	const images: ImageSource[] = [];
	let progressSum = 0;
	let isRunning = false;
	for (const state of states) {
		if (state.status === "completed") {
			images.push(...state.images);
			progressSum += 100;
		} else if (state.status === "running") {
			isRunning = true;
			progressSum += state.progress ?? 0;
		}
	}
	if (!isRunning) return { status: "completed", images };
	return { status: "running", progress: Math.round(progressSum / Math.max(1, states.length)) };
}
