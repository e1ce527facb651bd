import { describe, expect, it } from "vitest";
import { sleep } from "./sleep";

describe("sleep", () => {
	it("resolves once the time has passed", async () => {
		const started = performance.now();
		await sleep(30, new AbortController().signal);
		expect(performance.now() - started).toBeGreaterThanOrEqual(25);
	});

	it("rejects with an AbortError as soon as its signal aborts, long before its time", async () => {
		const controller = new AbortController();
		const started = performance.now();
		const waiting = sleep(60_000, controller.signal);
		setTimeout(() => controller.abort(), 10);
		await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
		expect(performance.now() - started).toBeLessThan(5_000);
	});

	it("rejects at once with the reason of a signal that already aborted", async () => {
		const reason = new Error("stopping");
		await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
	});
});
