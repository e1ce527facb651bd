import { PROGRESS } from "../core/constants";
import {
	generatorStageAhead,
	generatorStageNext,
	generatorStageQueued,
	generatorStageRunning,
	generatorStageSaving,
	generatorStageStarting,
	generatorStageStep,
} from "../i18n/messages";
import type { GenerationProgress } from "./generation-responses";

/** A progress report at `stage`, every field not given unknown (null). */
export function progressReport(
	stage: GenerationProgress["stage"],
	known: Partial<Omit<GenerationProgress, "stage">> = {},
): GenerationProgress {
	return {
		stage,
		position: null,
		percent: null,
		step: null,
		steps: null,
		previewUrl: null,
		...known,
	};
}

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

/**
 * How far along the provider says the generation is, from 0 to 1: its percent, else its step of
 * steps; null when it says neither (or says something unusable).
 */
export function readReportedFraction(report: GenerationProgress | null | undefined): number | null {
	if (!report) return null;
	if (report.percent !== null && Number.isFinite(report.percent)) {
		return Math.min(1, Math.max(0, report.percent / 100));
	}
	if (report.step !== null && report.steps !== null && report.steps > 0) {
		return Math.min(1, Math.max(0, report.step / report.steps));
	}
	return null;
}

/** A reported fraction on the bar: SPEC.md's running range, 20 at the start to 95 at the end. */
export function mapFractionToProgress(fraction: number): number {
	const span = PROGRESS.cap - PROGRESS.firstPoll;
	return Math.round(PROGRESS.firstPoll + span * Math.min(1, Math.max(0, fraction)));
}

/**
 * Where a report alone puts the bar, whoever shows it (the generator, a history card): the
 * provider's fraction mapped into 20 to 95, and 95 while the images are saved (the provider has
 * finished); null when it says neither, where the generator follows SPEC.md's schedule and a card
 * shows a bar without a value. A report still in the queue says nothing of how far the run is.
 */
export function readReportedProgress(report: GenerationProgress | null | undefined): number | null {
	if (!report || report.stage === "queued") return null;
	if (report.stage === "saving") return PROGRESS.cap;
	const fraction = readReportedFraction(report);
	return fraction === null ? null : mapFractionToProgress(fraction);
}

/**
 * The generator's bar while it polls: `percent` as shown, and how many answers have moved SPEC.md's
 * schedule on so far (every "not yet" except those that say the generation is still queued).
 */
export type PollingBar = { percent: number; scheduledAnswers: number };

/** The bar when polling begins: 20, nothing counted yet. */
export const POLLING_BAR_START: PollingBar = {
	percent: PROGRESS_STEPS.polling,
	scheduledAnswers: 0,
};

/**
 * The bar after a poll answer that said "not yet", never below what it showed before (so switching
 * from the schedule to a real fraction never moves it backwards) nor above 95:
 * - while the report says the generation waits in a queue, it holds (at 20 when the wait is the
 *   first thing polled), however long the wait and however often the queue moves;
 * - where the report gives the provider's fraction, or says the images are being saved, the bar is
 *   where readReportedProgress puts it;
 * - otherwise SPEC.md's schedule, 20 plus 8 for every answer counted: an answer without a report
 *   counts, as SPEC.md says, and so does one of a run under way, but not one still queued, so a
 *   long queue does not use up the running range before the run starts.
 */
export function advancePollingBar(
	bar: PollingBar,
	report: GenerationProgress | null | undefined,
): PollingBar {
	const isQueued = report?.stage === "queued";
	const scheduledAnswers = isQueued ? bar.scheduledAnswers : bar.scheduledAnswers + 1;
	const next = isQueued
		? PROGRESS.firstPoll
		: (readReportedProgress(report) ?? progressAfterPolls(scheduledAnswers));
	return { percent: Math.min(PROGRESS.cap, Math.max(bar.percent, next)), scheduledAnswers };
}

/**
 * The line under the bar that says what is happening: "3 ahead of you", "Next in line",
 * "Starting", "Step 12 of 30", "Saving images"; null when the server says nothing.
 */
export function describeProgress(report: GenerationProgress | null | undefined): string | null {
	if (!report) return null;
	switch (report.stage) {
		case "queued":
			if (report.position === null) return generatorStageQueued();
			if (report.position <= 0) return generatorStageNext();
			return generatorStageAhead({ position: report.position });
		case "starting":
			return generatorStageStarting();
		case "running":
			if (report.step !== null && report.steps !== null && report.steps > 0) {
				return generatorStageStep({
					step: Math.min(report.step, report.steps),
					steps: report.steps,
				});
			}
			return generatorStageRunning();
		case "saving":
			return generatorStageSaving();
	}
}
