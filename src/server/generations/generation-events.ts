import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/database";
import type { DatabaseSchema } from "../db/schema";
import type { Logger } from "../logging/logger";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The NOTIFY channel every change of a generation is announced on, with its id as the payload. */
const GENERATION_CHANGED_CHANNEL = "generation_changed";

/** Tells every server process (and so every waiting poll) that a generation changed. */
export async function notifyGenerationChanged(db: Executor, id: string): Promise<void> {
	await sql`select pg_notify(${GENERATION_CHANGED_CHANNEL}, ${id})`.execute(db);
}

/**
 * The key a person's new generations are announced under on the same channel (a generation's
 * own changes go under its id): what a wait for the person's active generations listens to.
 */
export function personChangeKey(userId: string): string {
	return `person:${userId}`;
}

/**
 * The key announced when Atelier's queue moves (a generation started, queued or deleted): any
 * queued generation's position may have changed with it, so a wait that shows positions listens
 * to it beside the generations' own ids.
 */
export const QUEUE_MOVED_KEY = "queue";

/**
 * The least time between two wakes of the waits on QUEUE_MOVED_KEY in one process. Every claim,
 * new generation and deletion of a queued one moves the queue; under a crowd that is several times
 * a second, and each wake answers (and so brings back at once) the poll of every queued page. The
 * first move after a quiet second wakes them at once, the moves within the second after it wake
 * them once at its end: a queued page's place moves within a second of the queue.
 */
export const QUEUE_MOVE_WAKE_INTERVAL_MS = 1_000;

/** Tells every server process, when the transaction commits, that these generations changed. */
export async function notifyGenerationsChanged(
	db: Executor,
	ids: readonly string[],
): Promise<void> {
	if (ids.length === 0) return;
	await sql`select pg_notify(${GENERATION_CHANGED_CHANNEL}, id) from unnest(${[...ids]}::text[]) as id`.execute(
		db,
	);
}

/**
 * Resolves when any of `keys` changes or after `timeoutMs`; the waits on the other keys end with
 * it (or when `signal` aborts), leaving no listener behind.
 */
export async function waitForAnyChange(
	events: GenerationEvents,
	keys: readonly string[],
	timeoutMs: number,
	signal?: AbortSignal,
): Promise<void> {
	const stop = new AbortController();
	const onAbort = () => stop.abort();
	signal?.addEventListener("abort", onAbort, { once: true });
	try {
		await Promise.race(keys.map((key) => events.waitForChange(key, timeoutMs, stop.signal)));
	} finally {
		stop.abort();
		signal?.removeEventListener("abort", onAbort);
	}
}

export type GenerationEvents = {
	/** Resolves when the generation changes (in any server process) or after `timeoutMs`. */
	waitForChange(id: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
	/**
	 * How many queue moves (QUEUE_MOVED_KEY) this process has heard, each counted as it is heard
	 * (its wake may come later): what was read of the queue while this stays the same is the queue
	 * still (queue-position-cache.ts).
	 */
	queueMoves(): number;
	/**
	 * Ends every wait now and every later one at once, still listening: a process on its way out
	 * answers its long polls with what it knows instead of holding them until their time is up
	 * (the browser asks again, and a load balancer sends that to a process that stays).
	 */
	endWaits(): void;
	/** Whether endWaits or close was called: a stream of changes ends rather than wait in vain. */
	isEnding(): boolean;
	/** How many waits on `key` this process holds now (what a test waits for before a change). */
	countWaits(key: string): number;
	close(): Promise<void>;
};

/** One LISTEN per process; waiting polls subscribe here by generation id. */
export async function listenForGenerationChanges(
	database: Database,
	logger: Logger,
): Promise<GenerationEvents> {
	const waiters = new Map<string, Set<() => void>>();
	let isEnding = false;
	const wakeEveryone = () => {
		for (const set of [...waiters.values()]) for (const wake of [...set]) wake();
		waiters.clear();
	};
	const wake = (id: string) => {
		const set = waiters.get(id);
		if (!set) return;
		waiters.delete(id);
		for (const wakeOne of set) wakeOne();
	};
	let queueMoves = 0;
	let queueWokenAt = Number.NEGATIVE_INFINITY;
	let queueWakeTimer: NodeJS.Timeout | undefined;
	const wakeQueueWaits = () => {
		queueWakeTimer = undefined;
		// Only a wake that ended waits spaces out the next.
		if (waiters.has(QUEUE_MOVED_KEY)) queueWokenAt = performance.now();
		wake(QUEUE_MOVED_KEY);
	};
	const unlisten = await database.listen(GENERATION_CHANGED_CHANNEL, (id) => {
		if (id !== QUEUE_MOVED_KEY) {
			wake(id);
			return;
		}
		queueMoves += 1;
		if (queueWakeTimer) return;
		const sinceWake = performance.now() - queueWokenAt;
		if (sinceWake >= QUEUE_MOVE_WAKE_INTERVAL_MS) wakeQueueWaits();
		else {
			queueWakeTimer = setTimeout(wakeQueueWaits, QUEUE_MOVE_WAKE_INTERVAL_MS - sinceWake);
			queueWakeTimer.unref();
		}
	});
	logger.debug("listening for generation changes");
	return {
		queueMoves: () => queueMoves,
		waitForChange(id, timeoutMs, signal) {
			if (isEnding) return Promise.resolve();
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
		isEnding: () => isEnding,
		countWaits: (key) => waiters.get(key)?.size ?? 0,
		endWaits() {
			isEnding = true;
			wakeEveryone();
		},
		async close() {
			isEnding = true;
			clearTimeout(queueWakeTimer);
			wakeEveryone();
			await unlisten();
		},
	};
}
