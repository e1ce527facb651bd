import { describe, expect, it } from "vitest";
import { createTestModel } from "../../../testing/fakes/test-generations";
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
			styleId: null,
		});
		expect(isModelGone).toBe(false);
	});

	it("stands the default in for a model that is gone, keeping the rest, when it can take it", () => {
		const { choice, isModelGone } = applyPrefill(
			answer,
			{ ...noSettings, modelId: "retired", count: 1, seed: 8, negativePrompt: "rain" },
			null,
		);
		expect(isModelGone).toBe(true);
		expect(choice).toMatchObject({ model: LOCAL, count: 1, seed: "8", negativePrompt: "rain" });
	});

	it("keeps the seed of a model that is gone when the person's last model takes none", () => {
		const unseeded = { ...LOCAL, id: "painter", label: "Painter", seed: false, counts: [1] };
		const { choice } = applyPrefill(
			{ models: [unseeded, LOCAL], defaultModelId: "local", preferredModelId: "painter" },
			{ ...noSettings, modelId: "retired", count: 1, seed: 8 },
			null,
		);
		expect(choice).toMatchObject({ model: LOCAL, count: 1, seed: "8" });
	});

	it("takes the first model offered that can take the rest when the default cannot", () => {
		const unseeded = { ...LOCAL, id: "painter", label: "Painter", seed: false };
		const { choice } = applyPrefill(
			{ models: [unseeded, sketch, LOCAL], defaultModelId: "painter", preferredModelId: null },
			{ ...noSettings, modelId: "retired", count: 2, seed: 8 },
			null,
		);
		expect(choice).toMatchObject({ model: sketch, count: 2, seed: "8" });
	});

	it("keeps the current model when it can take the rest, and the starting one when none can", () => {
		const retired = { ...noSettings, modelId: "retired", count: 2, seed: 8 };
		const current = { model: sketch, count: 1, seed: "", negativePrompt: "", quality: null };
		expect(applyPrefill(answer, retired, current).choice).toMatchObject({
			model: sketch,
			count: 2,
			seed: "8",
		});
		const unseeded = { ...LOCAL, id: "painter", label: "Painter", seed: false };
		const { choice } = applyPrefill(
			{ models: [unseeded], defaultModelId: "painter", preferredModelId: null },
			retired,
			null,
		);
		expect(choice).toMatchObject({ model: unseeded, count: 2 });
	});
});
