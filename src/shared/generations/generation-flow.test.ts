import { describe, expect, it } from "vitest";
import { GENERATION_MESSAGES } from "./generation-flow";

describe("the generator's messages", () => {
	it("are the texts of the error catalogue", () => {
		expect(GENERATION_MESSAGES).toEqual({
			signInRequired: "Please sign in to generate images.",
			invalidPrompt: "Please enter a valid prompt.",
			failed: "Generation failed",
			timedOut: "Generation timed out",
			noPollingUrl: "No polling URL provided",
			cancelled: "Request was cancelled",
		});
	});
});
