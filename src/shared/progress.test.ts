import { describe, expect, it } from "vitest";
import {
	clampProgressLabelPosition,
	describeProgress,
	mapFractionToProgress,
	nextProgress,
	PROGRESS_STEPS,
	progressAfterPolls,
	progressReport,
	readReportedFraction,
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

	it("follows the schedule without a fraction, the fraction with one, and never moves backwards", () => {
		const reports = [
			null,
			report("queued", { position: 1 }),
			report("running", { step: 2, steps: 30 }),
			report("running", { step: 27, steps: 30 }),
			report("running", { percent: 10 }),
			report("saving"),
		];
		const shown: number[] = [];
		let bar: number = PROGRESS_STEPS.polling;
		for (const [index, next] of reports.entries()) {
			bar = nextProgress(bar, index + 1, next);
			shown.push(bar);
		}
		expect(shown).toEqual([28, 36, 36, 88, 88, 88]);
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
