import { describe, expect, it } from "vitest";
import { applyBackgroundPattern } from "./background-pattern";

describe("applyBackgroundPattern", () => {
	it("gives the body the grid pattern by default", () => {
		const body = document.createElement("body");

		applyBackgroundPattern(body);

		expect(body).toHaveAttribute("data-pattern", "grid");
	});
});
