import { describe, expect, it } from "vitest";
import { createTestModel } from "../../testing/fakes/test-generations";
import { applyPrefill, snapCount } from "./model-choice";

const LOCAL = createTestModel();

describe("snapCount", () => {
	it("takes the offered count nearest to the one asked for, the larger of two as near", () => {
		expect(snapCount([1, 2], 4)).toBe(2);
		expect(snapCount([1, 2, 3, 4], 3)).toBe(3);
		expect(snapCount([2, 4], 3)).toBe(4);
		expect(snapCount([1], 4)).toBe(1);
	});
});

describe("applyPrefill", () => {
	const sketch = { ...LOCAL, id: "sketch", label: "Quick sketch", counts: [1, 2] };
	const answer = {
		models: [LOCAL, sketch],
		defaultModelId: "local",
		preferredModelId: "sketch",
	};
	const noSettings = {
		modelId: null,
		count: null,
		seed: null,
		negativePrompt: null,
		quality: null,
	};

	it("starts from the person's last model with its largest count and a random seed", () => {
		const { choice, isModelGone } = applyPrefill(answer, null, null);
		expect(choice).toEqual({
			model: sketch,
			count: 2,
			seed: "",
			negativePrompt: "",
			quality: null,
		});
		expect(isModelGone).toBe(false);
	});

	it("keeps the current model and the rest when the named model is gone", () => {
		const { choice, isModelGone } = applyPrefill(
			answer,
			{ ...noSettings, modelId: "retired", count: 1, seed: 8, negativePrompt: "rain" },
			null,
		);
		expect(isModelGone).toBe(true);
		expect(choice).toMatchObject({ model: sketch, count: 1, seed: "8", negativePrompt: "rain" });
	});
});
