import type { Storage } from "./storage";

/** A storage whose deletions can be held back for a while, and the way to hold them. */
export type HoldableStorage = {
	readonly storage: Storage;
	/**
	 * Holds every deletion back until the returned release is called; resolves once the deletions
	 * already under way have finished, so from then on no stored object disappears.
	 */
	holdDeletions(): Promise<() => void>;
};

/**
 * Wraps `storage` so that a backup can copy the images its database dump names while the server
 * keeps running (docs/decisions/017-backups.md). A deletion asked for during a hold waits for the
 * release and then runs, in its caller's order: a run that takes a generation over clears the
 * generation's folder before it stores anything, so the clearing must not be put off past its own
 * writes. Holds nest: deletions wait until the last one is released. Only deletions under
 * `heldPrefix` are held.
 */
export function createHoldableStorage(storage: Storage, heldPrefix: string): HoldableStorage {
	// Only what a backup copies (the generations' images) is held: other objects, such as the
	// readiness probe's, go at once, so a backup never makes the server look unready. Removing a
	// prefix that contains the held one (the whole store) is held too.
	const isHeldKey = (key: string) => key.startsWith(heldPrefix) || heldPrefix.startsWith(key);
	let holds = 0;
	let released: Promise<void> = Promise.resolve();
	let release: () => void = () => {};
	const running = new Set<Promise<unknown>>();

	const whenAllowed = async <T>(deletion: () => Promise<T>): Promise<T> => {
		while (holds > 0) await released;
		const work = deletion();
		running.add(work);
		try {
			return await work;
		} finally {
			running.delete(work);
		}
	};

	return {
		storage: {
			kind: storage.kind,
			put: (key, data, contentType) => storage.put(key, data, contentType),
			get: (key) => storage.get(key),
			listKeys: (prefix) => storage.listKeys(prefix),
			delete: (keys) =>
				keys.some(isHeldKey) ? whenAllowed(() => storage.delete(keys)) : storage.delete(keys),
			deletePrefix: (prefix) =>
				isHeldKey(prefix)
					? whenAllowed(() => storage.deletePrefix(prefix))
					: storage.deletePrefix(prefix),
		},
		async holdDeletions() {
			if (holds === 0) {
				released = new Promise((resolve) => {
					release = resolve;
				});
			}
			holds++;
			// Their outcome is their callers' business; the hold only waits for them to end.
			await Promise.allSettled([...running]);
			let isReleased = false;
			return () => {
				if (isReleased) return;
				isReleased = true;
				holds--;
				if (holds === 0) release();
			};
		},
	};
}
