import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { createLimiter, createPasswordHasher, DEFAULT_HASH_CONCURRENCY } from "./password-hashing";

function deferred() {
	let resolve: () => void = () => {};
	const promise = new Promise<void>((done) => {
		resolve = done;
	});
	return { promise, resolve };
}

describe("createLimiter", () => {
	it("runs at most `concurrency` tasks at once, the others in the order they came", async () => {
		const limit = createLimiter({ concurrency: 2, maxWaitMs: 10_000 });
		const gates = [deferred(), deferred(), deferred(), deferred()];
		const started: number[] = [];
		const finished = gates.map((gate, index) =>
			limit(async () => {
				started.push(index);
				await gate.promise;
				return index;
			}),
		);
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(started).toEqual([0, 1]);
		gates[1]?.resolve();
		await finished[1];
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(started).toEqual([0, 1, 2]);
		for (const gate of gates) gate.resolve();
		expect(await Promise.all(finished)).toEqual([0, 1, 2, 3]);
	});

	it("admits a crowd whose predicted wait is within the limit: none is refused", async () => {
		// Tasks of about 20 ms, two at a time: 40 of them wait at most 20 turns of 20 ms, well
		// within 2 s. Before, every task was refused once it had waited a fixed time, however
		// long the wait it had left.
		const limit = createLimiter({ concurrency: 2, maxWaitMs: 2_000, firstTaskEstimateMs: 20 });
		const sleep = () => new Promise((resolve) => setTimeout(resolve, 20));
		const results = await Promise.allSettled(
			Array.from({ length: 40 }, (_, index) =>
				limit(async () => {
					await sleep();
					return index;
				}),
			),
		);
		expect(results.filter((result) => result.status === "rejected")).toEqual([]);
	});

	it("refuses at once, with a Retry-After, a task whose predicted wait is over the limit, and keeps the places right", async () => {
		const limit = createLimiter({ concurrency: 1, maxWaitMs: 250, firstTaskEstimateMs: 100 });
		const gate = deferred();
		const first = limit(() => gate.promise);
		// Waits one turn (100 ms) and then two: both within 250 ms.
		const queued = [limit(async () => "second"), limit(async () => "third")];
		// Would wait three turns, 300 ms: refused without waiting.
		let hasRun = false;
		const refused = limit(async () => {
			hasRun = true;
		});
		await expect(refused).rejects.toBeInstanceOf(AppError);
		await expect(refused).rejects.toMatchObject({
			code: "SERVICE_UNAVAILABLE",
			status: 503,
			retryAfterSeconds: 1,
		});
		gate.resolve();
		await first;
		expect(await Promise.all(queued)).toEqual(["second", "third"]);
		expect(hasRun).toBe(false);
		// The places of the refused task were never taken: the next one runs at once.
		expect(await limit(async () => "next")).toBe("next");
	});

	it("refuses a task admitted whose turn does not come long past its predicted wait", async () => {
		const limit = createLimiter({
			concurrency: 1,
			maxWaitMs: 50,
			firstTaskEstimateMs: 10,
			giveUpMarginMs: 50,
		});
		const gate = deferred();
		const first = limit(() => gate.promise);
		const stuck = limit(async () => "never");
		await expect(stuck).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
		gate.resolve();
		await first;
		expect(await limit(async () => "next")).toBe("next");
	});

	it("drops a waiting task whose request was abandoned, and refuses one abandoned already", async () => {
		const limit = createLimiter({ concurrency: 1, maxWaitMs: 10_000 });
		const gate = deferred();
		const first = limit(() => gate.promise);
		const controller = new AbortController();
		let hasRun = false;
		const abandoned = limit(async () => {
			hasRun = true;
		}, controller.signal);
		controller.abort();
		await expect(abandoned).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
		await expect(limit(async () => {}, controller.signal)).rejects.toMatchObject({
			code: "SERVICE_UNAVAILABLE",
		});
		gate.resolve();
		await first;
		expect(hasRun).toBe(false);
	});
});

describe("createPasswordHasher", () => {
	it("hashes on every core by default, up to three", () => {
		expect(DEFAULT_HASH_CONCURRENCY).toBe(Math.max(1, Math.min(availableParallelism(), 3)));
		expect(DEFAULT_HASH_CONCURRENCY).toBeGreaterThanOrEqual(Math.min(availableParallelism(), 2));
	});

	it("makes hashes Better Auth's scrypt check accepts", async () => {
		const hasher = createPasswordHasher({ concurrency: 1 });
		const hash = await hasher.hash("correct horse battery");
		expect(await hasher.verify({ hash, password: "correct horse battery" })).toBe(true);
		expect(await hasher.verify({ hash, password: "wrong horse battery" })).toBe(false);
	});
});
