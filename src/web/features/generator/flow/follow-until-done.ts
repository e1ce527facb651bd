// Following a started generation to its end: through the page's one stream, else (or once it
// breaks) by polling its status route, with the progress bar on the way. Part of the flow's code
// (follow-generation.ts), loaded on demand.
import { GENERATION_TIMEOUT_MS, POLLING_INTERVAL_MS } from "../../../../shared/core/constants";
import { sleep } from "../../../../shared/core/sleep";
import {
	formatGenerationRequestError,
	type PollAnswer,
	type PollOutcome,
	readPollOutcome,
} from "../../../../shared/generations/generation-answers";
import { advancePollingBar, POLLING_BAR_START } from "../../../../shared/generations/progress";
import { generatorFailed, generatorTimedOut } from "../../../../shared/i18n/messages";
import { ApiError, isAbortError } from "../../../lib/api/api-client";
import { subscribeToGenerations } from "../../../lib/generations/generation-stream";
import { pollGenerationStatus } from "../../../lib/generations/generations-requests";
import type { GenerationAction } from "./generation-state";

export type Dispatch = (action: GenerationAction) => void;

type Outcome = Exclude<PollOutcome, { kind: "pending" }>;

/** The screen text for a failed request of the flow; anything but an ApiError is a plain failure. */
export function describeFailure(request: "start" | "poll", error: unknown): string {
	return error instanceof ApiError
		? formatGenerationRequestError(request, error)
		: generatorFailed();
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

/**
 * Follows the generation through the page's one stream (lib/generations/generation-stream.ts): each answer
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
export async function followUntilDone(
	target: { generationId: string; pollingUrl: string },
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<Outcome> {
	const deadline = Date.now() + GENERATION_TIMEOUT_MS;
	const streamed = await streamUntilDone(target, dispatch, signal, deadline);
	if (streamed !== "unavailable") return streamed;
	return pollUntilDone(target.pollingUrl, dispatch, signal, deadline);
}
