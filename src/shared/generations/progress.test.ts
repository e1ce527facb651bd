import { describe, expect, it } from "vitest";
import type { GenerationProgress } from "./generation-responses";
import {
	advancePollingBar,
	clampProgressLabelPosition,
	describeProgress,
	mapFractionToProgress,
	POLLING_BAR_START,
	PROGRESS_STEPS,
	progressAfterPolls,
	progressReport,
	readReportedFraction,
	readReportedProgress,
} from "./progress";

const report = progressReport;

describe("the progress schedule", () => {
	it("is 5 while starting, 15 when accepted, 20 when polling begins and 100 when done", () => {
		expect(PROGRESS_STEPS.starting).toBe(5);
		expect(PROGRESS_STEPS.accepted).toBe(15);
		expect(PROGRESS_STEPS.polling).toBe(20);
		expect(PROGRESS_STEPS.done).toBe(100);
		expect(PROGRESS_STEPS.failed).toBe(0);
	});

	it("rises by 8 for every poll answer that is not final", () => {
		expect([0, 1, 2, 3, 9].map(progressAfterPolls)).toEqual([20, 28, 36, 44, 92]);
	});

	it("never goes above 95 however many polls it takes", () => {
		expect(progressAfterPolls(10)).toBe(95);
		expect(progressAfterPolls(200)).toBe(95);
	});

	it("treats a negative or fractional count as whole polls from zero", () => {
		expect(progressAfterPolls(-3)).toBe(20);
		expect(progressAfterPolls(1.7)).toBe(28);
	});
});

describe("clampProgressLabelPosition", () => {
	it("keeps the label between 2 and 98 percent", () => {
		expect(clampProgressLabelPosition(0)).toBe(2);
		expect(clampProgressLabelPosition(1)).toBe(2);
		expect(clampProgressLabelPosition(2)).toBe(2);
		expect(clampProgressLabelPosition(50)).toBe(50);
		expect(clampProgressLabelPosition(98)).toBe(98);
		expect(clampProgressLabelPosition(100)).toBe(98);
	});

	it("puts an unknown value at the start", () => {
		expect(clampProgressLabelPosition(Number.NaN)).toBe(2);
	});
});

describe("the bar from the provider's reports", () => {
	it("reads the percent, else the step of steps, else nothing", () => {
		expect(readReportedFraction(report("running", { percent: 42, step: 1, steps: 10 }))).toBe(0.42);
		expect(readReportedFraction(report("running", { step: 12, steps: 30 }))).toBe(0.4);
		expect(readReportedFraction(report("running", { step: 3, steps: 0 }))).toBeNull();
		expect(readReportedFraction(report("queued", { position: 2 }))).toBeNull();
		expect(readReportedFraction(null)).toBeNull();
		expect(readReportedFraction(report("running", { percent: 140 }))).toBe(1);
	});

	it("maps a fraction into SPEC.md's running range, 20 to 95", () => {
		expect([0, 0.4, 1].map(mapFractionToProgress)).toEqual([20, 50, 95]);
	});

	it("puts a report alone on the bar: its fraction, 95 while saving, nothing while queued or without a fraction", () => {
		expect(readReportedProgress(report("running", { step: 12, steps: 30 }))).toBe(50);
		expect(readReportedProgress(report("running", { percent: 100 }))).toBe(95);
		expect(readReportedProgress(report("saving"))).toBe(95);
		expect(readReportedProgress(report("queued", { position: 2 }))).toBeNull();
		expect(readReportedProgress(report("starting"))).toBeNull();
		expect(readReportedProgress(report("running"))).toBeNull();
		expect(readReportedProgress(null)).toBeNull();
		expect(readReportedProgress(undefined)).toBeNull();
	});
});

/** The bar shown after each answer, from the start of polling. */
function followBar(reports: readonly (GenerationProgress | null | undefined)[]): number[] {
	let bar = POLLING_BAR_START;
	return reports.map((next) => {
		bar = advancePollingBar(bar, next);
		return bar.percent;
	});
}

describe("the generator's bar while it polls", () => {
	it("starts at 20, where SPEC.md's polling begins", () => {
		expect(POLLING_BAR_START.percent).toBe(PROGRESS_STEPS.polling);
	});

	it("is SPEC.md's schedule exactly for answers without progress, absent or null: 28, 36 ... at most 95", () => {
		const absent = followBar(Array.from({ length: 12 }, () => undefined));
		expect(absent).toEqual([28, 36, 44, 52, 60, 68, 76, 84, 92, 95, 95, 95]);
		expect(absent).toEqual(Array.from({ length: 12 }, (_, index) => progressAfterPolls(index + 1)));
		expect(followBar(Array.from({ length: 12 }, () => null))).toEqual(absent);
	});

	it("holds at 20 through a long wait in the queue, then shows the run's real fraction", () => {
		const queue = Array.from({ length: 30 }, (_, index) =>
			report("queued", { position: 29 - index }),
		);
		const shown = followBar([...queue, report("running", { step: 12, steps: 30 })]);
		expect(shown.slice(0, 30)).toEqual(Array.from({ length: 30 }, () => 20));
		expect(shown.at(-1)).toBe(50);
	});

	it("counts the schedule from the end of the queue where the run gives no fraction", () => {
		expect(
			followBar([
				report("queued", { position: 2 }),
				report("queued", { position: 1 }),
				report("queued", { position: 0 }),
				report("starting"),
				report("running"),
				report("saving"),
			]),
		).toEqual([20, 20, 20, 28, 36, 95]);
	});

	it("follows the fraction where there is one and never moves backwards, nor above 95", () => {
		expect(
			followBar([
				undefined,
				report("queued", { position: 1 }),
				report("running", { step: 2, steps: 30 }),
				report("running", { step: 27, steps: 30 }),
				report("running", { percent: 10 }),
				report("queued", { position: 0 }),
				report("saving"),
				report("running", { percent: 100 }),
			]),
		).toEqual([28, 28, 28, 88, 88, 88, 95, 95]);
	});

	it("keeps what the schedule showed when a fraction below it arrives", () => {
		expect(followBar([null, null, null, null, report("running", { step: 6, steps: 30 })])).toEqual([
			28, 36, 44, 52, 52,
		]);
	});
});

describe("the line under the bar", () => {
	it("says the queue position, the start, the step and the saving", () => {
		expect(describeProgress(report("queued", { position: 3 }))).toBe("3 ahead of you");
		expect(describeProgress(report("queued", { position: 1 }))).toBe("1 ahead of you");
		expect(describeProgress(report("queued", { position: 0 }))).toBe("Next in line");
		expect(describeProgress(report("queued"))).toBe("Waiting in the queue");
		expect(describeProgress(report("starting"))).toBe("Starting");
		expect(describeProgress(report("running", { step: 12, steps: 30 }))).toBe("Step 12 of 30");
		expect(describeProgress(report("running", { percent: 40 }))).toBe("Generating");
		expect(describeProgress(report("saving"))).toBe("Saving images");
		expect(describeProgress(null)).toBeNull();
	});
});
