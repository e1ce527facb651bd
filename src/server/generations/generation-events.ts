import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";
import { GENERATION_CHANGED_CHANNEL } from "./generation-repository";

export type GenerationEvents = {
	/** Resolves when the generation changes (in any server process) or after `timeoutMs`. */
	waitForChange(id: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
	close(): Promise<void>;
};

/** One LISTEN per process; waiting polls subscribe here by generation id. */
export async function listenForGenerationChanges(
	database: Database,
	logger: Logger,
): Promise<GenerationEvents> {
	const waiters = new Map<string, Set<() => void>>();
	const unlisten = await database.listen(GENERATION_CHANGED_CHANNEL, (id) => {
		const set = waiters.get(id);
		if (!set) return;
		waiters.delete(id);
		for (const wake of set) wake();
	});
	logger.debug("listening for generation changes");
	return {
		waitForChange(id, timeoutMs, signal) {
			return new Promise((resolve) => {
				const set = waiters.get(id) ?? new Set();
				waiters.set(id, set);
				const done = () => {
					clearTimeout(timer);
					set.delete(wake);
					if (set.size === 0 && waiters.get(id) === set) waiters.delete(id);
					signal?.removeEventListener("abort", done);
					resolve();
				};
				const wake = () => done();
				set.add(wake);
				const timer = setTimeout(done, timeoutMs);
				signal?.addEventListener("abort", done, { once: true });
			});
		},
		async close() {
			for (const set of waiters.values()) for (const wake of set) wake();
			waiters.clear();
			await unlisten();
		},
	};
}
