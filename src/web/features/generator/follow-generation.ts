// The browser's side of a generation: start it, then follow the server's record of it to the end.
// Loaded on demand (see generation-code.ts), not with the first page.

import { type AspectRatio, sizeForAspectRatio } from "../../../shared/aspect-ratios";
import { GENERATION_TIMEOUT_MS, POLLING_INTERVAL_MS } from "../../../shared/constants";
import {
	formatGenerationRequestError,
	type PollAnswer,
	type PollOutcome,
	readPollOutcome,
} from "../../../shared/generation-answers";
import {
	type Generation,
	type GenerationImage,
	isInProgress,
} from "../../../shared/generation-responses";
import {
	generatorFailed,
	generatorNoPollingUrl,
	generatorTimedOut,
} from "../../../shared/i18n/messages";
import { advancePollingBar, POLLING_BAR_START } from "../../../shared/progress";
import { sleep } from "../../../shared/sleep";
import { ApiError, isAbortError } from "../../lib/api-client";
import { subscribeToGenerations } from "../../lib/generation-stream";
import {
	fetchGeneration,
	fetchGenerationsPage,
	pollGenerationStatus,
	type StartGenerationRequest,
	startGeneration,
} from "../../lib/generations-requests";
import { buildImageActionRequest } from "../../lib/image-actions";
import { announceGeneration } from "./announce-generation";
import type {
	GeneratedRequest,
	GenerationAction,
	GenerationFamilyFacts,
	GenerationRecipe,
} from "./generation-state";

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

/** Parses a server timestamp, or null when it is missing or unreadable. */
function parseTimestamp(value: string | null | undefined): number | null {
	if (!value) return null;
	const time = Date.parse(value);
	return Number.isNaN(time) ? null : time;
}

/** The screen text for a failed request of the flow; anything but an ApiError is a plain failure. */
function describeFailure(request: "start" | "poll", error: unknown): string {
	return error instanceof ApiError
		? formatGenerationRequestError(request, error)
		: generatorFailed();
}

/** Passes actions on until `signal` aborts: cancel and reset have said what the screen shows. */
function dispatchUntilAborted(dispatch: Dispatch, signal: AbortSignal): Dispatch {
	return (action) => {
		if (!signal.aborted) dispatch(action);
	};
}

/**
 * Polls until the generation is done (SPEC.md section 4, Poll statuses) or the overall timeout
 * passes. Poll errors are retried at the polling interval; an abort ends at once.
 */
async function pollUntilDone(
	pollingUrl: string,
	dispatch: Dispatch,
	signal: AbortSignal,
	deadline: number,
): Promise<Outcome> {
	let lastStatus: string | null = null;
	let lastVersion: string | undefined;
	let bar = POLLING_BAR_START;

	while (Date.now() < deadline) {
		const pollStartedAt = Date.now();
		let answer: PollAnswer;
		try {
			answer = await pollGenerationStatus(pollingUrl, signal, lastVersion);
		} catch (error) {
			if (isAbortError(error)) throw error;
			dispatch({ type: "pollFailed", message: describeFailure("poll", error) });
			await sleep(Math.min(POLLING_INTERVAL_MS, Math.max(0, deadline - Date.now())), signal);
			continue;
		}
		lastVersion = answer.version;
		const outcome = readPollOutcome(answer);
		if (outcome.kind !== "pending") return outcome;
		bar = advancePollingBar(bar, answer.progress);
		dispatch({
			type: "pollPending",
			message: outcome.message,
			report: answer.progress ?? null,
			bar: bar.percent,
		});
		// The server holds a poll until the generation changes, so an early answer with a new
		// status or progress is followed by the next poll at once. An early answer with nothing new
		// comes from a server that did not wait: space those out to the polling interval.
		const news = `${answer.status} ${JSON.stringify(answer.progress ?? null)}`;
		const isNews = news !== lastStatus;
		lastStatus = news;
		if (!isNews) {
			const sinceStart = Date.now() - pollStartedAt;
			const pause = Math.min(POLLING_INTERVAL_MS - sinceStart, deadline - Date.now());
			if (pause > 0) await sleep(pause, signal);
		}
	}
	return { kind: "failed", message: generatorTimedOut() };
}

// A generation the page's stream has not named this long after following began is asked after
// once: it may have finished before the stream heard of it.
const UNHEARD_CHECK_MS = 3_000;

type Outcome = Exclude<PollOutcome, { kind: "pending" }>;

/**
 * Follows the generation through the page's one stream (lib/generation-stream.ts): each answer
 * it brings is read as a poll's. Its status route is asked only where the stream leaves it in
 * doubt: the generation left the stream's list (its end may have come while the stream
 * reconnected), or the stream has not named it yet. Resolves "unavailable" when the stream cannot
 * be had, or that one question fails: the polls take over.
 */
function streamUntilDone(
	target: { generationId: string; pollingUrl: string },
	dispatch: Dispatch,
	signal: AbortSignal,
	deadline: number,
): Promise<Outcome | "unavailable"> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) {
			reject(signal.reason);
			return;
		}
		let bar = POLLING_BAR_START;
		let isHeard = false;
		let isSettled = false;
		let isChecking = false;
		const timers: ReturnType<typeof setTimeout>[] = [];
		let unsubscribe: (() => void) | undefined;
		const settle = (end: () => void) => {
			if (isSettled) return;
			isSettled = true;
			unsubscribe?.();
			for (const timer of timers) clearTimeout(timer);
			signal.removeEventListener("abort", onAbort);
			end();
		};
		const onAbort = () => settle(() => reject(signal.reason));
		const onAnswer = (answer: PollAnswer) => {
			const outcome = readPollOutcome(answer);
			if (outcome.kind !== "pending") {
				settle(() => resolve(outcome));
				return;
			}
			bar = advancePollingBar(bar, answer.progress);
			dispatch({
				type: "pollPending",
				message: outcome.message,
				report: answer.progress ?? null,
				bar: bar.percent,
			});
		};
		const checkOnce = () => {
			if (isChecking || isSettled) return;
			isChecking = true;
			pollGenerationStatus(target.pollingUrl, signal).then(
				(answer) => {
					isChecking = false;
					if (!isSettled) onAnswer(answer);
				},
				(error: unknown) => {
					isChecking = false;
					if (!isAbortError(error)) settle(() => resolve("unavailable"));
				},
			);
		};
		unsubscribe = subscribeToGenerations({
			onGeneration: (id, answer) => {
				if (id !== target.generationId || isSettled) return;
				isHeard = true;
				onAnswer(answer);
			},
			onActive: (ids) => {
				if (ids.includes(target.generationId)) isHeard = true;
				else if (isHeard) checkOnce();
			},
			onUnavailable: () => settle(() => resolve("unavailable")),
		});
		// Told at once that there is no stream: settled before the subscription was known.
		if (isSettled) {
			unsubscribe();
			return;
		}
		signal.addEventListener("abort", onAbort, { once: true });
		timers.push(setTimeout(() => isHeard || checkOnce(), UNHEARD_CHECK_MS));
		timers.push(
			setTimeout(
				() => settle(() => resolve({ kind: "failed", message: generatorTimedOut() })),
				Math.max(0, deadline - Date.now()),
			),
		);
	});
}

/** Follows through the page's stream, else (or once it breaks) by polling, to the end. */
async function followUntilDone(
	target: { generationId: string; pollingUrl: string },
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<Outcome> {
	const deadline = Date.now() + GENERATION_TIMEOUT_MS;
	const streamed = await streamUntilDone(target, dispatch, signal, deadline);
	if (streamed !== "unavailable") return streamed;
	return pollUntilDone(target.pollingUrl, dispatch, signal, deadline);
}

type FollowTarget = {
	generationId: string;
	pollingUrl: string;
	request: GeneratedRequest;
};

/** Follows the generation to its end, then shows its saved record, or the failure. */
async function followGeneration(
	target: FollowTarget,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	const outcome = await followUntilDone(target, dispatch, signal);
	if (outcome.kind === "failed") {
		dispatch({ type: "failed", message: outcome.message });
		return;
	}

	let images = createImagesFromUrls(outcome.imageUrls, target.request.aspectRatio);
	let startedAt: number | null = null;
	let endedAt = Date.now();
	let recipe: GenerationRecipe | undefined;
	let family: GenerationFamilyFacts | undefined;
	try {
		// The saved record has each image's size and thumbnail, and the server's start and end
		// times for the elapsed display. If it cannot be read the poll's URLs and the current time
		// stand in, without a word (SPEC.md section 4).
		const record = await fetchGeneration(target.generationId, signal);
		if (record.images.length > 0) images = record.images;
		startedAt = parseTimestamp(record.created_at);
		endedAt = parseTimestamp(record.completed_at) ?? endedAt;
		recipe = { model: record.model, settings: record.settings };
		family = { parent: record.parent, childrenCount: record.childrenCount };
	} catch (error) {
		if (isAbortError(error)) throw error;
	}
	dispatch({ type: "completed", images, startedAt, endedAt, recipe, family });
}

/** Follows to the end; anything unexpected on the way is a plain failure, an abort is silence. */
async function followToTheEnd(
	target: FollowTarget,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	try {
		await followGeneration(target, dispatch, signal);
	} catch (error) {
		if (!isAbortError(error)) dispatch({ type: "failed", message: generatorFailed() });
	}
}

/**
 * What the start sends for `request`. Vary and Upscale name only the image, the action and the
 * factor: the prompt, ratio and model are the parent's, as the server takes them. An edit sends
 * the form's prompt and settings with its reference and strength.
 */
export function toStartRequest(request: GeneratedRequest): StartGenerationRequest {
	const { prompt, aspectRatio, settings, image } = request;
	const boards = request.boards?.length ? { boards: [...request.boards] } : {};
	if (image && image.action !== "edit") {
		return { ...buildImageActionRequest(image.action, image.reference, image.factor), ...boards };
	}
	const start: StartGenerationRequest = { prompt, aspectRatio, ...settings, ...boards };
	if (image) {
		start.action = "edit";
		start.reference = image.reference;
		// None set: the server's default strength (DEFAULT_REFERENCE_STRENGTH).
		if (image.strength !== undefined) start.strength = image.strength;
	}
	return start;
}

/**
 * Starts a generation and follows it to the end; failures become the screen's error. The caller
 * has already dispatched `started`, so the screen answers the click before this module loads.
 */
export async function startAndFollowGeneration(
	request: GeneratedRequest,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	const report = dispatchUntilAborted(dispatch, signal);
	let accepted: Awaited<ReturnType<typeof startGeneration>>;
	try {
		accepted = await startGeneration(toStartRequest(request), signal);
	} catch (error) {
		if (!isAbortError(error)) report({ type: "failed", message: describeFailure("start", error) });
		return;
	}
	const { id: generationId, pollingUrl, model, settings } = accepted;
	if (!pollingUrl) {
		report({ type: "failed", message: generatorNoPollingUrl() });
		return;
	}
	// The seed drawn for a random one is known from the start: the panels show it at once.
	const recipe = model && settings ? { model, settings } : undefined;
	const announce = announceGeneration(report, signal, {
		id: generationId,
		prompt: request.prompt,
	});
	announce({ type: "accepted", generationId, pollingUrl, recipe });
	announce({ type: "pollingStarted" });
	await followToTheEnd({ generationId, pollingUrl, request }, announce, signal);
}

// Several generations may run at once (the server allows a few per person); the newest few are
// enough to find the one to pick up.
const RESUME_LOOKUP_LIMIT = 5;

/** The newest of the person's generations still queued or running, if any and not in `skipIds`. */
async function findGenerationToResume(
	skipIds: ReadonlySet<string>,
	signal: AbortSignal,
): Promise<Generation | undefined> {
	const page = await fetchGenerationsPage({ limit: RESUME_LOOKUP_LIMIT, signal });
	return page.items.find((item) => isInProgress(item.status) && !skipIds.has(item.id));
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
		request: {
			prompt: generation.prompt,
			aspectRatio: generation.aspect_ratio,
			// Try Again after a failure asks for the same settings, with a new seed.
			settings: {
				model: generation.model.id,
				count: generation.settings.count,
				negativePrompt: generation.settings.negativePrompt ?? undefined,
				quality: generation.settings.quality ?? undefined,
			},
		},
	};
	const signal = options.onResume(target.request);
	const report = announceGeneration(dispatchUntilAborted(options.dispatch, signal), signal, {
		id: generation.id,
		prompt: generation.prompt,
	});
	report({
		type: "resumed",
		...target,
		startedAt: parseTimestamp(generation.created_at) ?? Date.now(),
		recipe: { model: generation.model, settings: generation.settings },
	});
	await followToTheEnd(target, report, signal);
}
