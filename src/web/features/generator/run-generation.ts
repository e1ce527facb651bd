// The generation flow: loaded on demand (see generator-page.tsx), not with the first page.
import { type AspectRatio, sizeForAspectRatio } from "../../../shared/aspect-ratios";
import { GENERATION_TIMEOUT_MS, POLLING_INTERVAL_MS } from "../../../shared/constants";
import { GENERATION_MESSAGES, readPollOutcome } from "../../../shared/generation-flow";
import type { GenerationImage } from "../../../shared/generation-responses";
import {
	fetchGeneration,
	findGenerationToResume,
	GenerationError,
	isAbortError,
	parseTimestamp,
	pollGeneration,
	startGeneration,
} from "./generation-api";
import type { GeneratedRequest, GenerationAction } from "./generation-state";

type Dispatch = (action: GenerationAction) => void;

// The offline engine and most providers make images about this big on the long side.
const FALLBACK_LONG_SIDE = 1024;

/**
 * Images made from bare poll URLs, for when the saved record cannot be read: their size comes
 * from the aspect ratio, so the space they take is still reserved before they load.
 */
function createImagesFromUrls(
	urls: readonly string[],
	aspectRatio: AspectRatio,
): GenerationImage[] {
	const { width, height } = sizeForAspectRatio(aspectRatio, FALLBACK_LONG_SIDE);
	return urls.map((url) => ({
		url,
		width,
		height,
		thumbnailUrl: url,
		thumbnailWidth: width,
		thumbnailHeight: height,
	}));
}

/** Resolves after `milliseconds`, or rejects with an AbortError as soon as `signal` aborts. */
function wait(milliseconds: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) {
			reject(new DOMException("Aborted", "AbortError"));
			return;
		}
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, milliseconds);
		function onAbort() {
			clearTimeout(timer);
			reject(new DOMException("Aborted", "AbortError"));
		}
		signal.addEventListener("abort", onAbort, { once: true });
	});
}

function readMessage(error: unknown): string {
	if (error instanceof Error && error.message) return error.message;
	return GENERATION_MESSAGES.failed;
}

type FollowTarget = {
	generationId: string;
	pollingUrl: string;
	request: GeneratedRequest;
};

/**
 * Polls until the generation is done (SPEC.md section 4, Poll statuses), then shows its saved
 * record. Poll errors are retried at the polling interval until the overall timeout; an abort
 * ends at once.
 */
async function followGeneration(
	target: FollowTarget,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	const deadline = Date.now() + GENERATION_TIMEOUT_MS;
	let lastStatus: string | null = null;
	let imageUrls: string[] | undefined;

	while (imageUrls === undefined) {
		if (Date.now() >= deadline) throw new GenerationError(GENERATION_MESSAGES.timedOut);
		const pollStartedAt = Date.now();
		let answer: Awaited<ReturnType<typeof pollGeneration>>;
		try {
			answer = await pollGeneration(target.pollingUrl, signal);
		} catch (error) {
			if (isAbortError(error)) throw error;
			dispatch({ type: "pollFailed", message: readMessage(error) });
			await wait(Math.min(POLLING_INTERVAL_MS, Math.max(0, deadline - Date.now())), signal);
			continue;
		}
		const outcome = readPollOutcome(answer);
		if (outcome.kind === "completed") {
			imageUrls = outcome.imageUrls;
			break;
		}
		if (outcome.kind === "failed") throw new GenerationError(outcome.message);
		dispatch({ type: "pollPending", message: outcome.message });
		// The server holds a poll until the generation changes, so an early answer with a new
		// status is followed by the next poll at once. An early answer with nothing new comes from
		// a server that did not wait: space those out to the polling interval.
		const isNews = answer.status !== lastStatus;
		lastStatus = answer.status;
		if (!isNews) {
			const sinceStart = Date.now() - pollStartedAt;
			const pause = Math.min(POLLING_INTERVAL_MS - sinceStart, deadline - Date.now());
			if (pause > 0) await wait(pause, signal);
		}
	}

	let images: GenerationImage[] = createImagesFromUrls(imageUrls, target.request.aspectRatio);
	let startedAt: number | null = null;
	let endedAt = Date.now();
	try {
		// The saved record has each image's size and thumbnail, and the server's start and end
		// times for the elapsed display. If it cannot be read the poll's URLs and the current time
		// stand in, without a word (SPEC.md section 4).
		const record = await fetchGeneration(target.generationId, signal);
		if (record.images.length > 0) images = record.images;
		startedAt = parseTimestamp(record.created_at);
		endedAt = parseTimestamp(record.completed_at) ?? endedAt;
	} catch (error) {
		if (isAbortError(error)) throw error;
	}
	dispatch({ type: "completed", images, startedAt, endedAt });
}

/**
 * Starts a generation and follows it to the end; failures become the screen's error. The caller
 * has already dispatched `started`, so the screen answers the click before this module loads.
 */
export async function runGeneration(
	request: GeneratedRequest,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	try {
		const { id, pollingUrl } = await startGeneration(request, signal);
		dispatch({ type: "accepted", generationId: id, pollingUrl });
		if (!pollingUrl) throw new GenerationError(GENERATION_MESSAGES.noPollingUrl);
		dispatch({ type: "pollingStarted" });
		await followGeneration({ generationId: id, pollingUrl, request }, dispatch, signal);
	} catch (error) {
		// Cancel and reset have already said what the screen shows.
		if (isAbortError(error) || signal.aborted) return;
		dispatch({ type: "failed", message: readMessage(error) });
	}
}

/**
 * Picks up the newest generation still queued or running (another visit, a reload), unless it is
 * in `skipIds` or `shouldResume` says no by the time the lookup answers, and follows it to the end.
 * The request is handed to `onResume` first, so the form can show it.
 */
export async function resumeGeneration(options: {
	skipIds: ReadonlySet<string>;
	shouldResume: () => boolean;
	onResume: (request: GeneratedRequest) => AbortSignal;
	dispatch: Dispatch;
	lookupSignal: AbortSignal;
}): Promise<void> {
	const generation = await findGenerationToResume(options.skipIds, options.lookupSignal).catch(
		() => undefined,
	);
	if (!generation?.polling_url || options.lookupSignal.aborted || !options.shouldResume()) return;
	const target: FollowTarget = {
		generationId: generation.id,
		pollingUrl: generation.polling_url,
		request: { prompt: generation.prompt, aspectRatio: generation.aspect_ratio },
	};
	const signal = options.onResume(target.request);
	options.dispatch({
		type: "resumed",
		...target,
		startedAt: parseTimestamp(generation.created_at) ?? Date.now(),
	});
	try {
		await followGeneration(target, options.dispatch, signal);
	} catch (error) {
		if (isAbortError(error) || signal.aborted) return;
		options.dispatch({ type: "failed", message: readMessage(error) });
	}
}
