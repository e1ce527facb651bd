import type { Kysely } from "kysely";
import sharp from "sharp";
import type { ProgressStage } from "../../../shared/generations/generation-responses";
import { IMAGE_TYPES } from "../../../shared/image-input/image-types";
import type { DatabaseSchema } from "../../db/schema";
import { runImageWork, WEBP_EFFORT } from "../../images/image-work";
import type { Logger } from "../../logging/logger";
import type { PreviewFrame, ProviderProgress } from "../../providers/types";
import type { Storage } from "../../storage/storage";
import { type Lease, type ProgressReport, reportProgress } from "./generation-lifecycle";
import { previewKey } from "./store-images";

/**
 * The least time between two progress writes of one run. A provider may report every sampler step
 * and every preview frame; a few writes a second keep the page live without a write per frame.
 */
export const PROGRESS_WRITE_INTERVAL_MS = 200;

/** The long side of a stored preview frame: enough for the results panel, a few kilobytes. */
const PREVIEW_LONG_SIDE = 512;

export type ProgressReporter = {
	/** Takes what the provider said; written at once if the last write is old enough, else soon. */
	report(progress: ProviderProgress): void;
	/** Moves to a stage the run itself decides (`saving`), written at once. */
	enterStage(stage: ProgressStage): Promise<void>;
	/** Writes what is still waiting, at once. */
	flush(): Promise<void>;
	/** Stops writing (after what is under way): the run is about to finish or give up. */
	close(): Promise<void>;
	/** Removes every preview frame this run stored (the final images replace them). */
	removePreviews(): Promise<void>;
};

type ReporterDeps = {
	db: Kysely<DatabaseSchema>;
	storage: Storage;
	logger: Logger;
	lease: Lease;
	/** The run's folder, where its preview frames are stored beside its images. */
	folder: string;
	/** Least time between two writes; PROGRESS_WRITE_INTERVAL_MS unless a test asks otherwise. */
	intervalMs?: number;
	/** Called when a write finds the run no longer holds the generation. */
	onClaimLost: () => void;
};

function hasNews(progress: ProviderProgress): boolean {
	return (
		progress.stage !== undefined ||
		progress.progress !== undefined ||
		progress.step !== undefined ||
		progress.steps !== undefined ||
		progress.queuePosition !== undefined ||
		progress.preview !== undefined
	);
}

/** What a write would say of the progress, but the preview: equal when nothing changed. */
function describeState(state: ProgressReport): string {
	return JSON.stringify([state.stage, state.position, state.percent, state.step, state.steps]);
}

async function shrinkPreview(frame: PreviewFrame): Promise<Uint8Array> {
	const data = await runImageWork(() =>
		sharp(frame.data)
			.resize(PREVIEW_LONG_SIDE, PREVIEW_LONG_SIDE, { fit: "inside", withoutEnlargement: true })
			.webp({ quality: 60, effort: WEBP_EFFORT })
			.toBuffer(),
	);
	return new Uint8Array(data);
}

/**
 * One run's progress, throttled: the first news is written at once, news arriving within
 * `intervalMs` of a write is merged and written when the interval ends (only the latest preview
 * frame is stored). Each write is one reportProgress transition, which announces it; news that
 * changes nothing (a polled provider saying the same again) is not written again. The stage is
 * `queued` with a queue position, else the one the provider names, else `running`. The percent
 * kept here never goes down, like the column. A preview frame is stored under a new key each time
 * (an image key never changes its bytes, so browsers may cache it) and the one before is removed.
 */
export function createProgressReporter(deps: ReporterDeps): ProgressReporter {
	const intervalMs = deps.intervalMs ?? PROGRESS_WRITE_INTERVAL_MS;
	const state: ProgressReport = {
		stage: "starting",
		percent: null,
		step: null,
		steps: null,
		position: null,
		previewKey: null,
	};
	let pendingFrame: PreviewFrame | undefined;
	let isDirty = false;
	let isClosed = false;
	let lastWriteAt = Number.NEGATIVE_INFINITY;
	let timer: NodeJS.Timeout | undefined;
	let frameCount = 0;
	// Whether the next news is written even when it changes nothing here: the first (the row may
	// still hold what an earlier run reported), and the next after a write failed.
	let isRowStale = true;
	const storedPreviews: string[] = [];
	// Writes one after another, in order.
	let chain: Promise<void> = Promise.resolve();

	async function storeFrame(frame: PreviewFrame): Promise<void> {
		let data: Uint8Array;
		try {
			data = await shrinkPreview(frame);
		} catch (error) {
			deps.logger.warn("a preview frame could not be read", {
				generationId: deps.lease.generationId,
				error,
			});
			return;
		}
		frameCount += 1;
		const key = previewKey(deps.folder, frameCount);
		await deps.storage.put(key, data, IMAGE_TYPES.webp.contentType);
		storedPreviews.push(key);
		state.previewKey = key;
	}

	async function write(): Promise<void> {
		if (!isDirty && !pendingFrame) return;
		isDirty = false;
		const frame = pendingFrame;
		pendingFrame = undefined;
		const previous = state.previewKey;
		if (frame) await storeFrame(frame);
		lastWriteAt = Date.now();
		const isHeld = await reportProgress(deps.db, deps.lease, { ...state });
		if (!isHeld) {
			deps.onClaimLost();
			return;
		}
		if (previous && previous !== state.previewKey) {
			await deps.storage.delete([previous]);
			storedPreviews.splice(storedPreviews.indexOf(previous), 1);
		}
	}

	function enqueueWrite(): Promise<void> {
		clearTimeout(timer);
		timer = undefined;
		chain = chain.then(write).catch((error: unknown) => {
			// Progress is news, not the result: a failed write is logged and the run goes on.
			isRowStale = true;
			deps.logger.warn("progress could not be recorded", {
				generationId: deps.lease.generationId,
				error,
			});
		});
		return chain;
	}

	function schedule(): void {
		if (isClosed || timer) return;
		const wait = lastWriteAt + intervalMs - Date.now();
		if (wait <= 0) {
			void enqueueWrite();
			// The next news within the interval waits for the timer.
			lastWriteAt = Date.now();
			return;
		}
		timer = setTimeout(() => void enqueueWrite(), wait);
	}

	return {
		report(progress) {
			if (isClosed || !hasNews(progress)) return;
			const before = describeState(state);
			if (progress.queuePosition !== undefined) {
				state.stage = "queued";
				state.position = progress.queuePosition;
			} else {
				state.stage = progress.stage ?? "running";
				state.position = null;
			}
			if (progress.progress !== undefined && Number.isFinite(progress.progress)) {
				const percent = Math.min(100, Math.max(0, progress.progress));
				state.percent = Math.max(state.percent ?? 0, percent);
			}
			if (progress.step !== undefined) state.step = progress.step;
			if (progress.steps !== undefined) state.steps = progress.steps;
			if (progress.preview) pendingFrame = progress.preview;
			if (!isRowStale && !progress.preview && describeState(state) === before) return;
			isRowStale = false;
			isDirty = true;
			schedule();
		},
		async enterStage(stage) {
			if (isClosed) return;
			state.stage = stage;
			state.position = null;
			isDirty = true;
			await enqueueWrite();
		},
		flush: () => (isClosed ? chain : enqueueWrite()),
		async close() {
			isClosed = true;
			clearTimeout(timer);
			timer = undefined;
			await chain;
		},
		async removePreviews() {
			const keys = storedPreviews.splice(0);
			if (keys.length > 0) await deps.storage.delete(keys);
		},
	};
}
