import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema>;

/**
 * Takes the endpoint's turn for the attempt `holder` (its job's id) until `leaseMs` from now: at
 * most one attempt is in flight an endpoint, so a slow receiver holds one worker, never all of them.
 * Free, run out (its holder died), or already this holder's (pg-boss retrying the same job):
 * taken. The endpoint is named through the delivery; false when another attempt holds it, or the
 * delivery is gone.
 */
export async function takeEndpointTurn(
	db: Db,
	deliveryId: string,
	holder: string,
	leaseMs: number,
): Promise<boolean> {
	const result = await sql<{ endpoint_id: string }>`
		insert into webhook_endpoint_turns as turns (endpoint_id, holder, lease_until)
		select endpoint_id, ${holder}, now() + make_interval(secs => ${leaseMs / 1000})
		from webhook_deliveries where id = ${deliveryId}
		on conflict (endpoint_id) do update set
			holder = excluded.holder,
			lease_until = excluded.lease_until
		where turns.lease_until < now() or turns.holder = excluded.holder
		returning endpoint_id`.execute(db);
	return result.rows.length > 0;
}

/**
 * Gives the turn back and names the endpoint's next due delivery, the attempt it is waiting for,
 * if there is one: attempts that found the turn taken were dropped, so the holder hands it on.
 */
export async function passEndpointTurn(
	db: Db,
	deliveryId: string,
	holder: string,
): Promise<{ deliveryId: string; attempt: number } | undefined> {
	const released = await sql<{ endpoint_id: string }>`
		delete from webhook_endpoint_turns
		where holder = ${holder}
			and endpoint_id = (select endpoint_id from webhook_deliveries where id = ${deliveryId})
		returning endpoint_id`.execute(db);
	const endpointId = released.rows[0]?.endpoint_id;
	if (endpointId === undefined) return undefined;
	const next = await db
		.selectFrom("webhook_deliveries")
		.select(["id", "attempts"])
		.where("endpoint_id", "=", endpointId)
		.where("status", "=", "pending")
		.where("next_attempt_at", "<=", sql<Date>`now()`)
		.orderBy("next_attempt_at")
		.orderBy("created_at")
		.limit(1)
		.executeTakeFirst();
	return next ? { deliveryId: next.id, attempt: next.attempts + 1 } : undefined;
}

/**
 * Each endpoint's oldest delivery overdue by more than `overdueMs` while no attempt holds its
 * turn: waiting for a hand-on that never came (a holder whose job ran out of retries).
 */
export async function findStalledDeliveries(
	db: Db,
	overdueMs: number,
): Promise<Array<{ deliveryId: string; attempt: number }>> {
	const result = await sql<{ id: string; attempts: number }>`
		select distinct on (deliveries.endpoint_id) deliveries.id, deliveries.attempts
		from webhook_deliveries deliveries
		left join webhook_endpoint_turns turns
			on turns.endpoint_id = deliveries.endpoint_id and turns.lease_until >= now()
		where deliveries.status = 'pending'
			and deliveries.next_attempt_at < now() - make_interval(secs => ${overdueMs / 1000})
			and turns.endpoint_id is null
		order by deliveries.endpoint_id, deliveries.next_attempt_at, deliveries.created_at`.execute(db);
	return result.rows.map((row) => ({ deliveryId: row.id, attempt: row.attempts + 1 }));
}
