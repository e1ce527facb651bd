import { describe, expect, it } from "vitest";
import { readLogProgress, splitLogLines } from "./log-progress";

describe("reading progress from a model's logs", () => {
	it("takes the percent and step of steps from the newest tqdm bar", () => {
		const logs =
			"Using seed: 42\r  10%|█         | 3/30 [00:01<00:09]\r 45%|████▌     | 13/30 [00:04<00:05]";
		expect(readLogProgress(splitLogLines(logs))).toEqual({ progress: 45, step: 13, steps: 30 });
	});

	it("takes a bare percent, or a step said in words", () => {
		expect(readLogProgress(["loading", "45%|"])).toEqual({ progress: 45 });
		expect(readLogProgress(["Step 12 of 30"])).toEqual({ progress: 40, step: 12, steps: 30 });
		expect(readLogProgress(["denoising step 6/24"])).toEqual({ progress: 25, step: 6, steps: 24 });
	});

	it("stops at 99 and says nothing of logs without a step", () => {
		expect(readLogProgress(["100%|██████████| 30/30"])).toMatchObject({ progress: 99 });
		expect(readLogProgress(["Generating images"])).toBeUndefined();
		expect(readLogProgress(splitLogLines(null))).toBeUndefined();
	});
});
