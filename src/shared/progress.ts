import { PROGRESS } from "./constants";

/**
 * The progress schedule of a generation (SPEC.md section 4): 5 while the start request is on its
 * way, 15 once the server accepted it, 20 when polling begins, 8 more for every poll answer that
 * is not final but never above 95, and 100 with the images. A failure drops it back to 0.
 */
export const PROGRESS_STEPS = {
	idle: 0,
	starting: PROGRESS.start,
	accepted: PROGRESS.accepted,
	polling: PROGRESS.firstPoll,
	done: PROGRESS.done,
	failed: 0,
} as const;

/** Progress after `pendingAnswers` poll answers that said "not yet": 20, 28, 36 ... at most 95. */
export function progressAfterPolls(pendingAnswers: number): number {
	const answers = Math.max(0, Math.floor(pendingAnswers));
	return Math.min(PROGRESS.cap, PROGRESS.firstPoll + PROGRESS.pollStep * answers);
}

/**
 * Where the percent label sits along the bar, in percent of its width: on the bar's tip, but
 * between 2 and 98 so a label centred on it never hangs over either end.
 */
export function clampProgressLabelPosition(percent: number): number {
	if (!Number.isFinite(percent)) return PROGRESS.labelMin;
	return Math.min(PROGRESS.labelMax, Math.max(PROGRESS.labelMin, percent));
}
