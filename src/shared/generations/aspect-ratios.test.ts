import { describe, expect, it } from "vitest";
import { ASPECT_RATIO_VALUES, readRatioParam, toRatioParam } from "./aspect-ratios";

describe("aspect ratios in web addresses", () => {
	it("writes each ratio short and reads it back", () => {
		expect(toRatioParam("--ar 16:9")).toBe("16:9");
		for (const value of ASPECT_RATIO_VALUES)
			expect(readRatioParam(toRatioParam(value))).toBe(value);
	});

	it("reads the flag itself too, and nothing that is not an option", () => {
		expect(readRatioParam("--ar 2:3")).toBe("--ar 2:3");
		expect(readRatioParam(" 9:16 ")).toBe("--ar 9:16");
		expect(readRatioParam("5:4")).toBeNull();
		expect(readRatioParam("")).toBeNull();
		expect(readRatioParam(null)).toBeNull();
	});
});
