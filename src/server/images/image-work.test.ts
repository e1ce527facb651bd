import { describe, expect, it } from "vitest";
import { createPasswordHasher } from "../auth/password-hashing";
import { renderImages } from "../providers/local/render";
import { IMAGE_WORK_CONCURRENCY, runImageWork } from "./image-work";

describe("image work", () => {
	it("lets a password hash through while a crowd's renders wait: it waits for no more than the encodings under way", async () => {
		// Three generations of four images at once: twelve encodings, three times libuv's pool.
		let imagesDrawn = 0;
		const renders = Array.from({ length: 3 }, (_, index) =>
			renderImages(
				{ prompt: `a lighthouse at dusk ${index}`, aspectRatio: "--ar 1:1", count: 4 },
				() => {
					imagesDrawn += 1;
				},
			),
		);
		await new Promise((resolve) => setImmediate(resolve));
		await createPasswordHasher().hash("correct horse battery");
		const drawnBeforeTheHash = imagesDrawn;
		await Promise.all(renders);
		expect(imagesDrawn).toBe(12);
		// Unbounded, the hash waited in libuv's queue behind every encoding but the last four.
		expect(drawnBeforeTheHash).toBeLessThanOrEqual(IMAGE_WORK_CONCURRENCY);
	}, 60_000);

	it("runs at most IMAGE_WORK_CONCURRENCY tasks at once, each in its turn, and hands the turn on when one fails", async () => {
		let running = 0;
		let most = 0;
		const order: number[] = [];
		const tasks = Array.from({ length: 8 }, (_, index) =>
			runImageWork(async () => {
				running += 1;
				most = Math.max(most, running);
				await new Promise((resolve) => setTimeout(resolve, 5));
				running -= 1;
				order.push(index);
				if (index === 1) throw new Error("this encoding fails");
				return index;
			}),
		);
		const settled = await Promise.allSettled(tasks);
		expect(most).toBe(IMAGE_WORK_CONCURRENCY);
		expect(settled.filter((result) => result.status === "rejected")).toHaveLength(1);
		expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
	});
});
