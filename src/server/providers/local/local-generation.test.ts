import { describe, expect, it } from "vitest";
import {
	readGeneration,
	readPoll,
	requestGeneration,
	startServerWithProvider,
	waitForFinish,
} from "../../testing/generation-kit";
import type { ImageProvider, ProviderProgress } from "../types";
import { createLocalProvider } from "./local-provider";

/**
 * The offline engine with its news after the first image drawn held back, with its answer, until
 * the test lets them through. The engine draws its images on worker threads side by side, so
 * without the hold a poll would see step 1, 2 or 4 as the machine's load has it; the engine, the
 * run and what reaches the poll are the product's own.
 */
function holdAfterFirstImage(engine: ImageProvider) {
	let release = () => {};
	const released = new Promise<void>((resolve) => {
		release = resolve;
	});
	const provider: ImageProvider = {
		...engine,
		async check(job, options) {
			const held: ProviderProgress[] = [];
			const state = await engine.check(job, {
				...options,
				onProgress(progress) {
					if ((progress.step ?? 0) > 1) held.push(progress);
					else options?.onProgress?.(progress);
				},
			});
			await released;
			for (const progress of held) options?.onProgress?.(progress);
			return state;
		},
	};
	return { provider, release };
}

describe("an offline engine generation's progress", () => {
	it("shows each image drawn as step i of the count while it runs", async () => {
		const { provider, release } = holdAfterFirstImage(createLocalProvider({ delayMs: 0 }));
		const { client } = await startServerWithProvider(provider);
		const created = await requestGeneration(client, "a quiet forest lake at dawn", "--ar 1:1", {
			count: 4,
		});

		// Its wait (none here) fills the first half of the percent, each image an eighth: 50 + 12.5.
		// The engine holds after its first image, so the wait ends there however busy the machine is
		// (the poll's own second would not see a worker that is slow to take the job).
		await expect
			.poll(async () => (await readPoll(client, created.pollingUrl)).progress, { timeout: 20_000 })
			.toEqual({
				stage: "running",
				position: null,
				percent: 63,
				step: 1,
				steps: 4,
				previewUrl: null,
			});
		expect(await readGeneration(client, created.id)).toMatchObject({
			status: "running",
			progress: { stage: "running", step: 1, steps: 4 },
		});

		release();
		const finished = await waitForFinish(client, created.pollingUrl);
		expect(finished).toMatchObject({ status: "completed", progress: null });
		expect(finished.results).toHaveLength(4);
	});
});
