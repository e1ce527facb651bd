import { beforeEach, describe, expect, it } from "vitest";
import { createHoldableStorage, type HoldableStorage } from "./deletion-hold";
import type { Storage } from "./storage";

/** Lets every callback already due run: a deletion not held would have finished by then. */
async function settle(): Promise<void> {
	for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Objects in memory, so a deletion that is let through ends within a few turns of the event loop;
 * `gate`, while set, keeps the next deletions going until it is opened.
 */
function createMemoryStorage() {
	const objects = new Map<string, Uint8Array>();
	let gate: Promise<void> | undefined;
	const storage: Storage = {
		kind: "memory",
		async put(key, data) {
			objects.set(key, data);
		},
		async get(key) {
			const data = objects.get(key);
			return data ? { data, contentType: "image/png" } : undefined;
		},
		async delete(keys) {
			await gate;
			for (const key of keys) objects.delete(key);
		},
		async deletePrefix(prefix) {
			await gate;
			for (const key of [...objects.keys()]) if (key.startsWith(prefix)) objects.delete(key);
		},
		async *listKeys(prefix) {
			yield [...objects.keys()].filter((key) => key.startsWith(prefix));
		},
	};
	return {
		storage,
		has: (key: string) => objects.has(key),
		closeGate() {
			let open: () => void = () => {};
			gate = new Promise((resolve) => {
				open = resolve;
			});
			return () => {
				gate = undefined;
				open();
			};
		},
	};
}

const PIXEL = new Uint8Array([1, 2, 3]);

describe("holding stored objects' removal for a backup", () => {
	let memory: ReturnType<typeof createMemoryStorage>;
	let holdable: HoldableStorage;
	beforeEach(async () => {
		memory = createMemoryStorage();
		holdable = createHoldableStorage(memory.storage, "generations/");
		await holdable.storage.put("generations/a/0.png", PIXEL, "image/png");
		await holdable.storage.put("generations/b/0.png", PIXEL, "image/png");
	});

	it("keeps every object while held and removes the asked ones once released", async () => {
		const release = await holdable.holdDeletions();
		const first = holdable.storage.deletePrefix("generations/a/");
		const second = holdable.storage.delete(["generations/b/0.png"]);
		await settle();
		expect(memory.has("generations/a/0.png")).toBe(true);
		expect(memory.has("generations/b/0.png")).toBe(true);

		release();
		await Promise.all([first, second]);
		expect(memory.has("generations/a/0.png")).toBe(false);
		expect(memory.has("generations/b/0.png")).toBe(false);
	});

	it("removes what is not a generation's image (the readiness probe's object) at once while held", async () => {
		await holdable.storage.put("health/probe", PIXEL, "text/plain");
		const release = await holdable.holdDeletions();
		await holdable.storage.delete(["health/probe"]);
		expect(memory.has("health/probe")).toBe(false);
		// A whole-store removal still counts as one of the images'.
		const everything = holdable.storage.deletePrefix("");
		await settle();
		expect(memory.has("generations/a/0.png")).toBe(true);
		release();
		await everything;
	});

	it("still stores and reads while deletions are held", async () => {
		const release = await holdable.holdDeletions();
		await holdable.storage.put("generations/c/0.png", PIXEL, "image/png");
		expect((await holdable.storage.get("generations/c/0.png"))?.data).toEqual(PIXEL);
		release();
	});

	it("is in place only once a deletion already under way has finished", async () => {
		const openGate = memory.closeGate();
		const deleting = holdable.storage.deletePrefix("generations/a/");
		let isHeld = false;
		const holding = holdable.holdDeletions().then((release) => {
			isHeld = true;
			return release;
		});
		await settle();
		expect(isHeld).toBe(false);
		openGate();
		await deleting;
		const release = await holding;
		expect(memory.has("generations/a/0.png")).toBe(false);
		release();
	});

	it("lets deletions through only when the last of two holds is released", async () => {
		const releaseFirst = await holdable.holdDeletions();
		const releaseSecond = await holdable.holdDeletions();
		const deleting = holdable.storage.deletePrefix("generations/a/");
		releaseFirst();
		// Releasing twice does not release the other hold.
		releaseFirst();
		await settle();
		expect(memory.has("generations/a/0.png")).toBe(true);
		releaseSecond();
		await deleting;
		expect(memory.has("generations/a/0.png")).toBe(false);
	});
});
