import { type Kysely, sql } from "kysely";
import type { AspectRatio } from "../../shared/aspect-ratios";
import { findAspectRatio } from "../../shared/aspect-ratios";
import type { DatabaseSchema, GenerationRow, StoredImage } from "../db/schema";
import { notifyGenerationChanged } from "../generations/generation-repository";
import { generationFolder, storeGenerationImage } from "../generations/store-images";
import type { Logger } from "../logger";
import {
	type ImageProvider,
	type ImageSource,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
} from "../providers/types";
import type { Storage } from "../storage/storage";

export type DownloadImage = (
	url: string,
	options: {
		maxBytes: number;
		timeoutMs: number;
		allowPrivateHosts: readonly string[];
		signal?: AbortSignal;
	},
) => Promise<{ data: Uint8Array; contentType: string }>;

export type GenerationRunSettings = {
	timeoutMs: number;
	maxRetries: number;
	retryDelayMs: number;
	/** How often the provider is asked for news. */
	providerPollMs: number;
	/** How long a worker's claim on a generation lasts without renewal. */
	leaseMs: number;
	imagesPerGeneration: number;
	downloadMaxBytes: number;
	downloadTimeoutMs: number;
};

export type GenerationRunDeps = {
	db: Kysely<DatabaseSchema>;
	provider: ImageProvider;
	storage: Storage;
	downloadImage: DownloadImage;
	logger: Logger;
	settings: GenerationRunSettings;
	/** Identifies this worker in leases. */
	workerId: string;
};

export type RunOutcome = "completed" | "failed" | "skipped";

const TIMED_OUT = "Generation timed out";
/** Shown on the poll while a rate-limited provider is waited for (HTTP 429 and its Retry-After). */
export const BUSY_RETRYING = "The image service is busy, retrying";
const FAILED = "Generation failed";

class LeaseLostError extends Error {
	constructor() {
		super("The generation was deleted or taken over by another worker");
	}
}

class TimedOutError extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) {
			reject(signal.reason);
			return;
		}
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal.reason);
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});
}

/** Removes a user-typed `--ar W:H` flag: the ratio travels separately, the provider's way. */
export function stripAspectRatioFlag(prompt: string): string {
	return prompt
		.replace(/(^|\s)--(ar|aspect)\s+\d+\s*:\s*\d+/gi, " ")
		.replace(/\s+/g, " ")
		.trim();
}

async function claimGeneration(
	deps: GenerationRunDeps,
	id: string,
): Promise<GenerationRow | undefined> {
	const leaseSeconds = deps.settings.leaseMs / 1000;
	return deps.db
		.updateTable("generations")
		.set({
			lease_owner: deps.workerId,
			lease_until: sql`now() + make_interval(secs => ${leaseSeconds})`,
			status: "running",
			started_at: sql`coalesce(started_at, now())`,
			attempts: sql`attempts + 1`,
			updated_at: sql`now()`,
		})
		.where("id", "=", id)
		.where("status", "in", ["queued", "running"])
		.where((eb) =>
			eb.or([
				eb("lease_until", "is", null),
				eb("lease_until", "<", sql<Date>`now()`),
				eb("lease_owner", "=", deps.workerId),
			]),
		)
		.returningAll()
		.executeTakeFirst();
}

async function renewLease(deps: GenerationRunDeps, id: string): Promise<boolean> {
	const leaseSeconds = deps.settings.leaseMs / 1000;
	const row = await deps.db
		.updateTable("generations")
		.set({ lease_until: sql`now() + make_interval(secs => ${leaseSeconds})` })
		.where("id", "=", id)
		.where("lease_owner", "=", deps.workerId)
		.where("status", "=", "running")
		.returning("id")
		.executeTakeFirst();
	return row !== undefined;
}

/**
 * Calls the provider, trying transient failures again (`maxRetries` times, `retryDelayMs` apart
 * or as long as Retry-After asks) while the generation's time lasts.
 */
async function withRetries<T>(
	deps: GenerationRunDeps,
	id: string,
	deadline: number,
	signal: AbortSignal,
	step: string,
	call: () => Promise<T>,
): Promise<T> {
	let isShowingBusy = false;
	for (let attempt = 1; ; attempt++) {
		try {
			const result = await call();
			if (isShowingBusy) await setStatusMessage(deps, id, null);
			return result;
		} catch (error) {
			if (signal.aborted) throw signal.reason;
			const isRetryable = !(error instanceof ProviderError) || error.retryable;
			if (!isRetryable || attempt >= deps.settings.maxRetries) throw error;
			const delay = Math.max(
				deps.settings.retryDelayMs,
				error instanceof ProviderError ? (error.retryAfterMs ?? 0) : 0,
			);
			if (Date.now() + delay >= deadline) throw new TimedOutError(TIMED_OUT);
			if (error instanceof ProviderError && error.isBusy && !isShowingBusy) {
				isShowingBusy = true;
				await setStatusMessage(deps, id, BUSY_RETRYING);
			}
			deps.logger.warn("provider call failed; retrying", {
				step,
				attempt,
				delayMs: delay,
				error,
			});
			await sleep(delay, signal);
		}
	}
}

async function setStatusMessage(
	deps: GenerationRunDeps,
	id: string,
	message: string | null,
): Promise<void> {
	await deps.db
		.updateTable("generations")
		.set({ status_message: message })
		.where("id", "=", id)
		.where("lease_owner", "=", deps.workerId)
		.execute();
	await notifyGenerationChanged(deps.db, id);
}

async function fetchImageBytes(
	deps: GenerationRunDeps,
	source: ImageSource,
	signal: AbortSignal,
): Promise<Uint8Array> {
	if (source.kind === "bytes") return source.data;
	const { data } = await deps.downloadImage(source.url, {
		maxBytes: deps.settings.downloadMaxBytes,
		timeoutMs: deps.settings.downloadTimeoutMs,
		allowPrivateHosts: deps.provider.trustedPrivateHosts ?? [],
		signal,
	});
	return data;
}

async function finish(
	deps: GenerationRunDeps,
	id: string,
	update: { status: "completed"; images: StoredImage[] } | { status: "failed"; error: string },
): Promise<boolean> {
	const row = await deps.db
		.updateTable("generations")
		.set({
			status: update.status,
			images: JSON.stringify(update.status === "completed" ? update.images : []),
			error: update.status === "failed" ? update.error : null,
			completed_at: sql`now()`,
			updated_at: sql`now()`,
			lease_owner: null,
			lease_until: null,
			status_message: null,
		})
		.where("id", "=", id)
		.where("lease_owner", "=", deps.workerId)
		.where("status", "=", "running")
		.returning("id")
		.executeTakeFirst();
	if (row) await notifyGenerationChanged(deps.db, id);
	return row !== undefined;
}

/**
 * Runs one generation to its end: start at the provider once (its job id saved at once so a
 * restart resumes it), follow it within the timeout, copy every image into our storage, and mark
 * the row completed or failed. Safe to call more than once for the same generation: a lease makes
 * sure one worker at a time runs it, and a finished generation is left alone.
 */
export async function runGeneration(deps: GenerationRunDeps, id: string): Promise<RunOutcome> {
	const claimed = await claimGeneration(deps, id);
	if (!claimed) return "skipped";
	await notifyGenerationChanged(deps.db, id);

	const controller = new AbortController();
	const startedAt = (claimed.started_at ?? new Date()).getTime();
	const deadline = startedAt + deps.settings.timeoutMs;
	const timeoutTimer = setTimeout(
		() => controller.abort(new TimedOutError(TIMED_OUT)),
		Math.max(0, deadline - Date.now()),
	);
	const renewTimer = setInterval(() => {
		renewLease(deps, id)
			.then((isHeld) => {
				if (!isHeld) controller.abort(new LeaseLostError());
			})
			.catch((error) => deps.logger.warn("lease renewal failed", { generationId: id, error }));
	}, deps.settings.leaseMs / 3);

	const input = {
		prompt: stripAspectRatioFlag(claimed.prompt),
		aspectRatio: claimed.aspect_ratio as AspectRatio,
		count: deps.settings.imagesPerGeneration,
	};
	let job: ProviderJob | undefined = claimed.api_id ? { jobId: claimed.api_id, input } : undefined;
	const signal = controller.signal;

	try {
		// A stored ratio is always one of ours; this guards against a hand-edited row.
		findAspectRatio(input.aspectRatio);
		if (!job) {
			const started = await withRetries(deps, id, deadline, signal, "start", () =>
				deps.provider.start(input, { signal }),
			);
			job = { jobId: started.jobId, input };
			const saved = await deps.db
				.updateTable("generations")
				.set({ api_id: started.jobId, updated_at: sql`now()` })
				.where("id", "=", id)
				.where("lease_owner", "=", deps.workerId)
				.returning("id")
				.executeTakeFirst();
			if (!saved) throw new LeaseLostError();
			await notifyGenerationChanged(deps.db, id);
		}
		const providerJob = job;

		let state: ProviderJobState;
		for (;;) {
			state = await withRetries(deps, id, deadline, signal, "check", () =>
				deps.provider.check(providerJob, { signal }),
			);
			if (state.status !== "running") break;
			await sleep(deps.settings.providerPollMs, signal);
		}
		if (state.status === "failed") {
			deps.logger.warn("provider reported failure", {
				generationId: id,
				message: state.message,
				reason: state.reason,
			});
			await deps.storage.deletePrefix(generationFolder(id));
			return (await finish(deps, id, { status: "failed", error: state.message || FAILED }))
				? "failed"
				: "skipped";
		}
		if (state.images.length === 0)
			throw new ProviderError("The provider returned no images", { retryable: false });

		const images: StoredImage[] = [];
		for (const [index, source] of state.images.entries()) {
			const bytes = await withRetries(deps, id, deadline, signal, "download", () =>
				fetchImageBytes(deps, source, signal),
			);
			images.push(await storeGenerationImage(deps.storage, id, index, bytes));
		}
		if (await finish(deps, id, { status: "completed", images })) return "completed";
		// Deleted while we worked: nothing may stay behind.
		await deps.storage.deletePrefix(generationFolder(id));
		return "skipped";
	} catch (error) {
		const reason = signal.aborted ? signal.reason : error;
		if (reason instanceof LeaseLostError) {
			deps.logger.info("generation deleted or taken over; stopping", { generationId: id });
			if (job) await deps.provider.cancel?.(job).catch(() => {});
			const row = await deps.db
				.selectFrom("generations")
				.select("id")
				.where("id", "=", id)
				.executeTakeFirst();
			if (!row) await deps.storage.deletePrefix(generationFolder(id));
			return "skipped";
		}
		const message =
			reason instanceof TimedOutError
				? TIMED_OUT
				: reason instanceof ProviderError
					? reason.userMessage
					: FAILED;
		deps.logger.warn("generation failed", { generationId: id, message, error: reason });
		if (reason instanceof TimedOutError && job) await deps.provider.cancel?.(job).catch(() => {});
		await deps.storage.deletePrefix(generationFolder(id));
		return (await finish(deps, id, { status: "failed", error: message })) ? "failed" : "skipped";
	} finally {
		clearTimeout(timeoutTimer);
		clearInterval(renewTimer);
	}
}
