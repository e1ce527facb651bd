import { describe, expect, it } from "vitest";
import { clampProgressLabelPosition, PROGRESS_STEPS, progressAfterPolls } from "./progress";

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
