import { describe, expect, it } from "vitest";
import type { GenerationInput, ProviderJobState } from "../types";
import { ProviderError } from "../types";
import { createLocalProvider } from "./local-provider";
import { renderImages } from "./render";

const DELAY_MS = 3000;

function createTestInput(overrides: Partial<GenerationInput> = {}): GenerationInput {
	return {
		prompt: "a quiet forest lake at dawn",
		aspectRatio: "--ar 1:1",
		count: 4,
		seed: null,
		negativePrompt: null,
		quality: null,
		...overrides,
	};
}

/** A provider on a hand-driven clock, so tests step through the delay without waiting. */
function createTestProvider() {
	const clock = { time: 1_000_000 };
	const provider = createLocalProvider({ delayMs: DELAY_MS, now: () => clock.time });
	return { provider, clock };
}

function expectCompleted(state: ProviderJobState) {
	if (state.status !== "completed") throw new Error(`expected completed, got ${state.status}`);
	return state.images.map((image) => {
		if (image.kind !== "bytes") throw new Error("expected bytes");
		return image;
	});
}

describe("createLocalProvider", () => {
	it("starts at once with a local job id", async () => {
		const { provider } = createTestProvider();
		const first = await provider.start(createTestInput());
		const second = await provider.start(createTestInput());
		expect(provider.name).toBe("local");
		expect(first.jobId).toMatch(/^local_[0-9a-f-]{36}$/);
		expect(second.jobId).not.toBe(first.jobId);
	});

	it("reports rising progress while the delay runs, then the rendered images", async () => {
		const { provider, clock } = createTestProvider();
		const input = createTestInput();
		const { jobId } = await provider.start(input);

		clock.time += DELAY_MS * 0.25;
		const early = await provider.check({ jobId, input });
		clock.time += DELAY_MS * 0.5;
		const later = await provider.check({ jobId, input });
		expect(early.status).toBe("running");
		expect(later.status).toBe("running");
		const earlyProgress = early.status === "running" ? (early.progress ?? 0) : 0;
		const laterProgress = later.status === "running" ? (later.progress ?? 0) : 0;
		expect(earlyProgress).toBeGreaterThan(0);
		expect(laterProgress).toBeGreaterThan(earlyProgress);
		expect(laterProgress).toBeLessThan(100);

		clock.time += DELAY_MS * 0.25;
		const images = expectCompleted(await provider.check({ jobId, input }));
		const expected = await renderImages(input);
		expect(images).toHaveLength(4);
		images.forEach((image, index) => {
			expect(image.contentType).toBe("image/jpeg");
			expect(Buffer.from(image.data).equals(expected[index]?.data ?? Buffer.alloc(0))).toBe(true);
		});
	});

	it("resumes a job it never saw (after a restart) by rendering from the input", async () => {
		const { provider } = createTestProvider();
		const input = createTestInput({ prompt: "snowy mountains", aspectRatio: "--ar 16:9" });
		const jobId = "local_0b7e9f4a-54a4-4a4e-9d4e-2f0a8c7e1d11";

		const images = expectCompleted(await provider.check({ jobId, input }));
		const expected = await renderImages(input);
		expect(images.map((image) => Buffer.from(image.data))).toEqual(
			expected.map((image) => image.data),
		);
	});

	it("renders once for checks that arrive together", async () => {
		const { provider, clock } = createTestProvider();
		const input = createTestInput();
		const { jobId } = await provider.start(input);
		clock.time += DELAY_MS;

		const [first, second] = await Promise.all([
			provider.check({ jobId, input }),
			provider.check({ jobId, input }),
		]);
		const firstImages = expectCompleted(first);
		const secondImages = expectCompleted(second);
		// The very same buffers: both checks awaited one render.
		firstImages.forEach((image, index) => {
			expect(secondImages[index]?.data).toBe(image.data);
		});
	});

	it("answers a check after completion with the same images again", async () => {
		const { provider, clock } = createTestProvider();
		const input = createTestInput({ count: 1 });
		const { jobId } = await provider.start(input);
		clock.time += DELAY_MS;

		const [first] = expectCompleted(await provider.check({ jobId, input }));
		const [again] = expectCompleted(await provider.check({ jobId, input }));
		// A retried check (the worker died while storing) must get the very same images.
		expect(Buffer.from(again?.data ?? []).equals(Buffer.from(first?.data ?? []))).toBe(true);
	});

	it("forgets a cancelled job", async () => {
		const { provider } = createTestProvider();
		const input = createTestInput({ count: 1 });
		const { jobId } = await provider.start(input);
		expect((await provider.check({ jobId, input })).status).toBe("running");

		await provider.cancel?.({ jobId, input });
		// No delay is remembered for it any more: a later check treats it as a resumed job.
		expect((await provider.check({ jobId, input })).status).toBe("completed");
	});

	it("offers a seed, a negative prompt, one to four images, no quality, and images made from an image", () => {
		const { provider } = createTestProvider();
		expect(provider.capabilities).toEqual({
			seed: true,
			negativePrompt: true,
			qualities: [],
			maxCount: 4,
			textToImage: true,
			imageInput: true,
			referenceStrength: true,
			upscaleFactors: [2, 4],
			// Its upscale is a Lanczos resample: it says so.
			upscaleResamples: true,
			// It repaints only a masked region, and paints an expansion's new area.
			mask: true,
			outpaint: true,
			maxRegionPixels: 16_000_000,
		});
	});

	it("renders the same bytes for the same seed and settings in a fresh provider", async () => {
		const input = createTestInput({ seed: 4_294_967_295, negativePrompt: "birds, red", count: 2 });
		const jobId = "local_0b7e9f4a-54a4-4a4e-9d4e-2f0a8c7e1d11";
		const first = expectCompleted(await createTestProvider().provider.check({ jobId, input }));
		const again = expectCompleted(await createTestProvider().provider.check({ jobId, input }));
		const otherSeed = expectCompleted(
			await createTestProvider().provider.check({ jobId, input: { ...input, seed: 0 } }),
		);
		expect(first).toHaveLength(2);
		expect(again.map((image) => Buffer.from(image.data))).toEqual(
			first.map((image) => Buffer.from(image.data)),
		);
		otherSeed.forEach((image, index) => {
			expect(Buffer.from(image.data).equals(Buffer.from(first[index]?.data ?? []))).toBe(false);
		});
	});

	it.each([1, 2, 3, 4])("renders exactly %i image(s) when asked for them", async (count) => {
		const { provider } = createTestProvider();
		const input = createTestInput({ count, seed: 42 });
		const jobId = "local_0b7e9f4a-54a4-4a4e-9d4e-2f0a8c7e1d11";
		expect(expectCompleted(await provider.check({ jobId, input }))).toHaveLength(count);
	});

	it("rejects job ids it could not have made, without retrying", async () => {
		const { provider } = createTestProvider();
		const input = createTestInput();
		for (const jobId of [
			"",
			"local_",
			"local_not-a-uuid",
			"fal_0b7e9f4a-54a4-4a4e-9d4e-2f0a8c7e1d11",
		]) {
			const error = await provider.check({ jobId, input }).then(
				() => undefined,
				(reason: unknown) => reason,
			);
			expect(error).toBeInstanceOf(ProviderError);
			expect(error instanceof ProviderError && error.retryable).toBe(false);
		}
	});
});

describe("the offline engine's progress", () => {
	it("reports each image drawn as step i of the count, the percent rising to 100", async () => {
		const { provider, clock } = createTestProvider();
		const job = {
			...(await provider.start(createTestInput({ count: 3 }))),
			input: createTestInput({ count: 3 }),
		};
		const reports: Array<{ step?: number; steps?: number; progress?: number }> = [];
		clock.time += DELAY_MS;

		const state = await provider.check(job, { onProgress: (progress) => reports.push(progress) });

		expect(expectCompleted(state)).toHaveLength(3);
		expect(reports.map(({ step, steps }) => ({ step, steps }))).toEqual([
			{ step: 1, steps: 3 },
			{ step: 2, steps: 3 },
			{ step: 3, steps: 3 },
		]);
		const percents = reports.map((report) => report.progress ?? 0);
		expect(percents).toEqual([...percents].sort((a, b) => a - b));
		expect(percents.at(-1)).toBe(100);
	});
});
