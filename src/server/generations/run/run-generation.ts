import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { sleep } from "../../../shared/core/sleep";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import { MODEL_NO_LONGER_OFFERED } from "../../../shared/generations/generation-settings";
import type { DatabaseSchema, GenerationRow, StoredImage } from "../../db/schema";
import type { downloadImage } from "../../images/download-image";
import type { Logger } from "../../logging/logger";
import type { ModelCatalogue } from "../../models/model-catalogue";
import type { GenerationMetrics } from "../../observability/metrics";
import { PROVIDER_MESSAGES } from "../../providers/shared/provider-messages";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
} from "../../providers/types";
import type { SignedUrls } from "../../storage/signed-urls";
import type { Storage } from "../../storage/storage";
import { inputOf } from "../generation-input";
import { findGenerationById } from "../generation-repository";
import {
	claimGeneration,
	completeGeneration,
	type FinishedGeneration,
	failGeneration,
	type Lease,
	type OnGenerationFinished,
	renewLease,
	saveProviderJob,
	setStatusMessage,
} from "./generation-lifecycle";
import { createProgressReporter, type ProgressReporter } from "./progress-reporter";
import { loadReferenceImage } from "./reference-image";
import { keepUnmaskedPixels, keptObjectKeys, loadRegionInstruction } from "./region-image";
import { removeInputImages, serveInputImages } from "./served-inputs";
import { generationFolder, runFolder, storeGenerationImage } from "./store-images";

export type GenerationRunSettings = {
	timeoutMs: number;
	maxRetries: number;
	retryDelayMs: number;
	/** How often the provider is asked for news. */
	providerPollMs: number;
	/** How long a run's claim on a generation lasts without renewal. */
	leaseMs: number;
	downloadMaxBytes: number;
	downloadTimeoutMs: number;
	/** The least time between two progress writes; PROGRESS_WRITE_INTERVAL_MS by default. */
	progressIntervalMs?: number;
};

export type GenerationRunDeps = {
	db: Kysely<DatabaseSchema>;
	models: ModelCatalogue;
	storage: Storage;
	downloadImage: typeof downloadImage;
	/** Where a provider that fetches its images by URL is given them (the server has one). */
	signedUrls?: SignedUrls;
	logger: Logger;
	settings: GenerationRunSettings;
	/** Where finished generations and provider errors are counted; nothing is without it. */
	metrics?: GenerationMetrics;
	/** What commits with a generation's end (its webhook deliveries). */
	onFinished?: OnGenerationFinished;
};

type RunOutcome = "completed" | "failed" | "skipped";

/** The run no longer holds the generation: it was deleted, or its lease ran out and another run took it. */
class ClaimLostError extends Error {
	constructor() {
		super("The generation was deleted or taken over by another run");
	}
}

class TimedOutError extends Error {}

/** One run of one generation: its claim, its clock and what it has done so far. */
type Run = {
	deps: GenerationRunDeps;
	lease: Lease;
	signal: AbortSignal;
	deadline: number;
	/** The generation's model, as the metrics name it. */
	modelId: string;
	/** The provider of the generation's model. */
	provider: ImageProvider;
	/** Whether a region edit's results are laid over its source (the model's `keepUnmasked`). */
	keepUnmasked: boolean;
	/** The provider's job once started (or resumed from the row). */
	job: ProviderJob | undefined;
	/** Where the run's progress is recorded, throttled. */
	progress: ProgressReporter;
};

// The longest wait between two tries of a service that cannot be reached.
const MAX_OUTAGE_DELAY_MS = 30_000;

/**
 * Calls the provider, trying transient failures again (`maxRetries` times, `retryDelayMs` apart
 * or as long as Retry-After asks) while the generation's time lasts. A service that cannot be
 * reached is tried with growing back-off until the timeout instead: its job may go on meanwhile.
 * While a busy or unreachable service is waited for, the poll says so.
 */
async function withRetries<T>(run: Run, step: string, call: () => Promise<T>): Promise<T> {
	const { deps, lease, signal } = run;
	let shownMessage: string | null = null;
	let failures = 0;
	let outageTries = 0;
	for (let attempt = 1; ; attempt++) {
		try {
			const result = await call();
			if (shownMessage) await setStatusMessage(deps.db, lease, null);
			return result;
		} catch (error) {
			if (signal.aborted) throw signal.reason;
			deps.metrics?.recordProviderError(run.modelId, error);
			const isRetryable = !(error instanceof ProviderError) || error.retryable;
			const isUnreachable = error instanceof ProviderError && error.isUnreachable;
			if (isUnreachable) outageTries += 1;
			else failures += 1;
			if (!isRetryable || failures >= deps.settings.maxRetries) throw error;
			const ownDelay = isUnreachable
				? Math.min(deps.settings.retryDelayMs * 2 ** (outageTries - 1), MAX_OUTAGE_DELAY_MS)
				: deps.settings.retryDelayMs;
			const delay = Math.max(
				ownDelay,
				error instanceof ProviderError ? (error.retryAfterMs ?? 0) : 0,
			);
			// An outage is waited out to the very end: the timeout stops the wait if it comes first.
			if (!isUnreachable && Date.now() + delay >= run.deadline) throw new TimedOutError();
			const message: string | null =
				error instanceof ProviderError && error.isBusy
					? PROVIDER_MESSAGES.busyRetrying
					: isUnreachable
						? PROVIDER_MESSAGES.unreachableRetrying
						: shownMessage;
			if (message !== shownMessage) {
				shownMessage = message;
				await setStatusMessage(deps.db, lease, message);
			}
			deps.logger.warn("provider call failed; retrying", { step, attempt, delayMs: delay, error });
			await sleep(delay, signal);
		}
	}
}

/** Starts the provider's job once (saving its id at once) or resumes the one the row names. */
async function startOrResume(run: Run, row: GenerationRow): Promise<ProviderJob> {
	const { deps } = run;
	// A generation made from an image gives the provider its own copy of it, read again by a run
	// that resumes: the provider may need it to render again (the offline engine after a restart).
	const { reference_image: reference } = row;
	const referenceImage = reference ? await loadReferenceImage(deps.storage, reference) : undefined;
	const region = referenceImage
		? await loadRegionInstruction(deps.storage, row, referenceImage)
		: undefined;
	const input = region ? { ...inputOf(row), image: region } : inputOf(row, referenceImage);
	if (row.api_id) return { jobId: row.api_id, input };
	const sent = await withServedImages(run, input);
	const started = await withRetries(run, "start", () =>
		run.provider.start(sent, { signal: run.signal, onProgress: run.progress.report }),
	);
	run.job = { jobId: started.jobId, input };
	if (!(await saveProviderJob(deps.db, run.lease, started.jobId))) throw new ClaimLostError();
	return run.job;
}

/** The input with its images served by signed URLs, for a provider that fetches them. */
async function withServedImages(run: Run, input: GenerationInput): Promise<GenerationInput> {
	if (!run.provider.fetchesImageUrls || !input.image) return input;
	const { storage, signedUrls } = run.deps;
	if (!signedUrls) throw new Error("The run has no signed URLs for a provider that fetches images");
	const folder = runFolder(run.lease.generationId, run.lease.token);
	return { ...input, image: await serveInputImages({ storage, signedUrls }, folder, input.image) };
}

async function followJob(run: Run, job: ProviderJob): Promise<ImageSource[]> {
	const { deps, signal } = run;
	const onProgress = run.progress.report;
	// A service that pushes progress (ComfyUI's WebSocket) is heard between checks.
	const stopWatching = run.provider.watch?.(job, { signal, onProgress });
	let state: ProviderJobState;
	try {
		for (;;) {
			state = await withRetries(run, "check", () =>
				run.provider.check(job, { signal, onProgress }),
			);
			if (state.status !== "running") break;
			onProgress(state);
			await sleep(deps.settings.providerPollMs, signal);
		}
	} finally {
		stopWatching?.();
	}
	if (state.status === "failed") {
		throw new ProviderError(`The provider reported failure: ${state.reason ?? state.message}`, {
			retryable: false,
			userMessage: state.message || GENERATION_MESSAGES.failed,
		});
	}
	if (state.images.length === 0) {
		throw new ProviderError("The provider returned no images", { retryable: false });
	}
	return state.images;
}

async function storeImages(run: Run, sources: ImageSource[]): Promise<StoredImage[]> {
	const { deps, signal, lease } = run;
	const folder = runFolder(lease.generationId, lease.token);
	const images: StoredImage[] = [];
	for (const [index, source] of sources.entries()) {
		const bytes = await withRetries(run, "download", async () => {
			if (source.kind === "bytes") return source.data;
			const downloaded = await deps.downloadImage(source.url, {
				maxBytes: deps.settings.downloadMaxBytes,
				timeoutMs: deps.settings.downloadTimeoutMs,
				allowPrivateHosts: run.provider.trustedPrivateHosts ?? [],
				signal,
			});
			return downloaded.data;
		});
		// Every pixel outside a region edit's mask is its source's, whatever the provider changed.
		const region = run.job?.input.image;
		const kept =
			region?.kind === "region" && run.keepUnmasked
				? await keepUnmaskedPixels(bytes, region)
				: bytes;
		images.push(await storeGenerationImage(deps.storage, folder, index, kept));
	}
	return images;
}

/**
 * Before a run that takes over stores anything: removes what earlier runs of the generation stored.
 * They lost their claim (their process died or stalled past its lease), so the row will never name
 * their objects; a killed run cannot remove them itself. An unfinished generation names no image,
 * so everything under its folder is theirs, but the copy of the image it starts from.
 */
async function removeEarlierRuns(deps: GenerationRunDeps, row: GenerationRow): Promise<void> {
	if (row.attempts <= 1) return;
	try {
		const folder = generationFolder(row.id);
		const kept = keptObjectKeys(row);
		if (kept.length === 0) {
			await deps.storage.deletePrefix(folder);
		} else {
			// The generation's copy of its starting image (and mask) was written at its creation.
			for await (const keys of deps.storage.listKeys(folder)) {
				const earlier = keys.filter((key) => !kept.includes(key));
				if (earlier.length > 0) await deps.storage.delete(earlier);
			}
		}
	} catch (error) {
		// Left for the stray-object sweep; this run's own images are unaffected.
		deps.logger.warn("objects of an earlier run were not removed", { generationId: row.id, error });
	}
}

/**
 * After a run failed or lost its claim: removes what this run stored (never another run's images),
 * cancels the provider's job when nobody will follow it any more, and records the failure if the
 * run still holds the generation.
 */
async function settleFailure(run: Run, reason: unknown): Promise<RunOutcome> {
	const { deps, lease } = run;
	const generationId = lease.generationId;
	// No progress write may store a preview after the folder is gone.
	await run.progress.close();
	await deps.storage.deletePrefix(runFolder(generationId, lease.token));
	if (reason instanceof ClaimLostError) {
		const row = await findGenerationById(deps.db, generationId);
		// Moved to the Trash, it was failed there and nobody follows its job any more either.
		const isDeleted = !row || row.deleted_at !== null;
		deps.logger.info("run lost its claim; stopping without changes", { generationId, isDeleted });
		// A run that took over follows the same provider job; only a deleted generation's job goes.
		if (isDeleted && run.job) await run.provider.cancel?.(run.job).catch(() => {});
		return "skipped";
	}
	const message =
		reason instanceof TimedOutError
			? GENERATION_MESSAGES.timedOut
			: reason instanceof ProviderError
				? reason.userMessage
				: GENERATION_MESSAGES.failed;
	deps.logger.warn("generation failed", { generationId, message, error: reason });
	if (reason instanceof TimedOutError && run.job) {
		await run.provider.cancel?.(run.job).catch(() => {});
	}
	return recordFinished(
		deps,
		"failed",
		await failGeneration(deps.db, lease, message, deps.onFinished),
	);
}

/** Counts a generation this run finished; "skipped" when the run no longer held it. */
function recordFinished(
	deps: GenerationRunDeps,
	outcome: "completed" | "failed",
	finished: FinishedGeneration | undefined,
): RunOutcome {
	if (!finished) return "skipped";
	deps.metrics?.recordFinished(finished.modelId, outcome, finished.secondsSinceCreated);
	return outcome;
}

/**
 * Runs the generation whose turn it is (claimGeneration: the fair queue's order) to its end: start
 * at the provider once (its job id saved at once so a run that takes over resumes it), follow it
 * within the timeout, copy every image into our storage, and mark the row completed or failed.
 * Each call claims with a token of its own; a call that finds nothing to claim, or loses the
 * claim, stops without changing anything.
 */
export async function runNextGeneration(deps: GenerationRunDeps): Promise<RunOutcome> {
	const token = randomUUID();
	const row = await claimGeneration(deps.db, token, deps.settings.leaseMs);
	if (!row) return "skipped";
	const id = row.id;
	const lease: Lease = { generationId: id, token };
	deps.logger.info("running generation", { generationId: id, attempt: row.attempts });
	const model = deps.models.find(row.model_id);
	if (!model) {
		// The operator took the model out of the catalogue while the generation waited.
		deps.logger.warn("generation's model is no longer offered", {
			generationId: id,
			model: row.model_id,
		});
		return recordFinished(
			deps,
			"failed",
			await failGeneration(deps.db, lease, MODEL_NO_LONGER_OFFERED, deps.onFinished),
		);
	}

	const controller = new AbortController();
	const deadline = (row.started_at ?? new Date()).getTime() + deps.settings.timeoutMs;
	const timeoutTimer = setTimeout(
		() => controller.abort(new TimedOutError()),
		Math.max(0, deadline - Date.now()),
	);
	const renewTimer = setInterval(() => {
		renewLease(deps.db, lease, deps.settings.leaseMs)
			.then((isHeld) => {
				if (!isHeld) controller.abort(new ClaimLostError());
			})
			.catch((error) => deps.logger.warn("lease renewal failed", { generationId: id, error }));
	}, deps.settings.leaseMs / 3);
	const run: Run = {
		deps,
		lease,
		signal: controller.signal,
		deadline,
		modelId: model.id,
		provider: model.provider,
		keepUnmasked: model.keepUnmasked,
		job: undefined,
		progress: createProgressReporter({
			db: deps.db,
			storage: deps.storage,
			logger: deps.logger,
			lease,
			folder: runFolder(id, lease.token),
			intervalMs: deps.settings.progressIntervalMs,
			onClaimLost: () => controller.abort(new ClaimLostError()),
		}),
	};

	try {
		await removeEarlierRuns(deps, row);
		run.job = await startOrResume(run, row);
		const sources = await followJob(run, run.job);
		await run.progress.enterStage("saving");
		if (run.provider.fetchesImageUrls) await removeInputImages(deps.storage, runFolder(id, token));
		const images = await storeImages(run, sources);
		await run.progress.close();
		const finished = await completeGeneration(deps.db, lease, images, deps.onFinished);
		if (!finished) throw new ClaimLostError();
		// The final images replace the preview, which the row no longer names.
		await run.progress
			.removePreviews()
			.catch((error) =>
				deps.logger.warn("preview frames were not removed", { generationId: id, error }),
			);
		return recordFinished(deps, "completed", finished);
	} catch (error) {
		return await settleFailure(run, controller.signal.aborted ? controller.signal.reason : error);
	} finally {
		clearTimeout(timeoutTimer);
		clearInterval(renewTimer);
	}
}
