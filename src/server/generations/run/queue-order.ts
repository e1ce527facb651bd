import { type Kysely, sql } from "kysely";
import type { DatabaseSchema, GenerationRow } from "../../db/schema";

/**
 * The fair queue's one order (decision 020): which queued generation starts next, and so how many
 * start before each. `claimGeneration` takes the first; `findQueuePositions` counts the ones ahead.
 *
 * A person's last turn is the latest start among their generations since the queue's current
 * wait began: the time since something was last queued or running without a break, which each
 * generation records as it is inserted (`wait_began_at`, migration 0019). A turn given before
 * that, when the queue had emptied since, delayed nobody now waiting and is forgotten; a turn
 * given within it counts, whether it has ended or not. The queued generations go in rounds:
 * each person's first queued one (oldest first) in round 0, their second in round 1, and so on.
 * Within a round, people who have had no turn go first, first come first served (by their oldest
 * queued generation); then the others, the one whose last turn is oldest first. Starting a
 * person's round-0 generation makes their turn the latest, which moves them to the end of every
 * round: so the order after a start is the order before it without that generation. The end of
 * a generation changes nothing here: the wait it belonged to goes on while anything is unfinished,
 * and a turn's start stays where it was. So the positions this order gives are the order in which
 * generations start.
 *
 * `queue_order` lists every queued generation with its `queue_position` (0: next).
 */
export const QUEUE_ORDER = sql`
	queue_wait as (
		select min(wait_began_at) as began
		from generations
		where status in ('queued', 'running')
	),
	rounds as (
		select
			id,
			user_id,
			row_number() over (partition by user_id order by created_at, id) - 1 as round,
			min(created_at) over (partition by user_id) as since
		from generations
		where status = 'queued'
	),
	turns as (
		select
			waiting.user_id,
			(
				select max(started.started_at)
				from generations started, queue_wait
				where started.user_id = waiting.user_id
					and started.started_at >= queue_wait.began
			) as last_turn
		from (select distinct user_id from rounds) waiting
	),
	queue_order as (
		select
			rounds.id,
			row_number() over (
				order by rounds.round, turns.last_turn asc nulls first, rounds.since, rounds.user_id
			) - 1 as queue_position
		from rounds
		join turns on turns.user_id = rounds.user_id
	)`;

type QueuedOrNot = Pick<GenerationRow, "id" | "status">;

/**
 * How many queued generations will start before each of these rows that is queued: 0 when it is
 * next. One query for the whole list, none when no row is queued (a history page of finished
 * generations costs nothing). Rows not queued (running, finished) are absent from the answer.
 */
export async function findQueuePositions(
	db: Kysely<DatabaseSchema>,
	rows: readonly QueuedOrNot[],
): Promise<ReadonlyMap<string, number>> {
	const queuedIds = rows.filter((row) => row.status === "queued").map((row) => row.id);
	if (queuedIds.length === 0) return new Map();
	const result = await sql<{ id: string; queue_position: string | number }>`
		with ${QUEUE_ORDER}
		select id, queue_position from queue_order
		where id in (${sql.join(queuedIds)})`.execute(db);
	return new Map(result.rows.map((row) => [row.id, Number(row.queue_position)]));
}

/** One generation's position in the queue, or null when it is not queued. */
export async function findQueuePosition(
	db: Kysely<DatabaseSchema>,
	row: QueuedOrNot,
): Promise<number | null> {
	return (await findQueuePositions(db, [row])).get(row.id) ?? null;
}
