import { describe, expect, it } from "vitest";
import { measureElapsed } from "./use-elapsed";

describe("measureElapsed", () => {
	it("is the difference between two known times", () => {
		expect(measureElapsed(1_000, 4_200)).toBe(3_200);
	});

	it("is unknown when either end is missing", () => {
		expect(measureElapsed(null, 4_200)).toBeNull();
		expect(measureElapsed(1_000, undefined)).toBeNull();
		expect(measureElapsed(Number.NaN, 4_200)).toBeNull();
	});
});
