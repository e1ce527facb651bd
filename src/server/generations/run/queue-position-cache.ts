import type { Kysely } from "kysely";
import type { DatabaseSchema, GenerationRow } from "../../db/schema";
import type { GenerationEvents } from "../generation-events";
import { findQueuePositions } from "./queue-order";

type QueuedOrNot = Pick<GenerationRow, "id" | "status">;

type Reading = { queueMoves: number; positions: Promise<ReadonlyMap<string, number>> };

// One reading a server process's events: every waiting poll of the process shares it.
const readings = new WeakMap<GenerationEvents, Reading>();

/**
 * The places in the fair queue of these rows that are queued, for a poll's answer: read once for
 * every queued generation and kept until the process hears the queue move (QUEUE_MOVED_KEY, from
 * any process). A queue move wakes the waiting poll of every queued generation; each reading the
 * whole order for itself made the reads grow with the square of the queue, which cost a crowd's
 * embedded database most of its time. A row queued after the reading, its announcement not heard
 * yet, is read alone. Rows not queued are absent from the answer.
 */
export async function findCachedQueuePositions(
	db: Kysely<DatabaseSchema>,
	events: GenerationEvents,
	rows: readonly QueuedOrNot[],
): Promise<ReadonlyMap<string, number>> {
	const queued = rows.filter((row) => row.status === "queued");
	if (queued.length === 0) return new Map();
	const queueMoves = events.queueMoves();
	let reading = readings.get(events);
	if (!reading || reading.queueMoves !== queueMoves) {
		const fresh: Reading = { queueMoves, positions: readEveryPosition(db) };
		readings.set(events, fresh);
		// A failed reading is not kept: the next poll reads again.
		fresh.positions.catch(() => {
			if (readings.get(events) === fresh) readings.delete(events);
		});
		reading = fresh;
	}
	const positions = await reading.positions;
	const missing = queued.filter((row) => !positions.has(row.id));
	if (missing.length === 0) return positions;
	return new Map([...positions, ...(await findQueuePositions(db, missing))]);
}

/** One generation's place in the queue (findCachedQueuePositions), or null when it is not queued. */
export async function findCachedQueuePosition(
	db: Kysely<DatabaseSchema>,
	events: GenerationEvents,
	row: QueuedOrNot,
): Promise<number | null> {
	return (await findCachedQueuePositions(db, events, [row])).get(row.id) ?? null;
}

async function readEveryPosition(db: Kysely<DatabaseSchema>) {
	const queued = await db
		.selectFrom("generations")
		.select(["id", "status"])
		.where("status", "=", "queued")
		.execute();
	return findQueuePositions(db, queued);
}
