import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors";
import { createLimiter, createPasswordHasher } from "./password-hashing";

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

	it("answers SERVICE_UNAVAILABLE to a task that waited too long, and keeps its places right", async () => {
		const limit = createLimiter({ concurrency: 1, maxWaitMs: 50 });
		const gate = deferred();
		const first = limit(() => gate.promise);
		const second = limit(async () => "never");
		await expect(second).rejects.toBeInstanceOf(AppError);
		await expect(second).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
		gate.resolve();
		await first;
		// The place the refused task waited for was never taken: the next one runs at once.
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
	it("makes hashes Better Auth's scrypt check accepts", async () => {
		const hasher = createPasswordHasher({ concurrency: 1 });
		const hash = await hasher.hash("correct horse battery");
		expect(await hasher.verify({ hash, password: "correct horse battery" })).toBe(true);
		expect(await hasher.verify({ hash, password: "wrong horse battery" })).toBe(false);
	});
});
