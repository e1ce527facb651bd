import { type Kysely, type Selectable, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema>;

export type WebhookEndpointRow = Selectable<DatabaseSchema["webhook_endpoints"]>;
export type WebhookDeliveryRow = Selectable<DatabaseSchema["webhook_deliveries"]>;

/** How many deliveries the log shows. */
const DELIVERY_LOG_LENGTH = 50;

export async function insertWebhookEndpoint(
	db: Db,
	row: Omit<WebhookEndpointRow, "created_at">,
): Promise<WebhookEndpointRow> {
	return db.insertInto("webhook_endpoints").values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Records an endpoint unless the person already has `maxEndpoints`; undefined then. The count and
 * the insert hold the person's lock, so endpoints saved at the same instant cannot pass the limit
 * together.
 */
export async function insertWebhookEndpointWithinLimit(
	db: Db,
	row: Omit<WebhookEndpointRow, "created_at">,
	maxEndpoints: number,
): Promise<WebhookEndpointRow | undefined> {
	return db.transaction().execute(async (transaction) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`atelier:webhook-endpoints:${row.user_id}`}))`.execute(
			transaction,
		);
		if ((await countWebhookEndpoints(transaction, row.user_id)) >= maxEndpoints) return undefined;
		return insertWebhookEndpoint(transaction, row);
	});
}

export function countWebhookEndpoints(db: Db, userId: string): Promise<number> {
	return db
		.selectFrom("webhook_endpoints")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("user_id", "=", userId)
		.executeTakeFirstOrThrow()
		.then((row) => Number(row.count));
}

export function listWebhookEndpoints(db: Db, userId: string): Promise<WebhookEndpointRow[]> {
	return db
		.selectFrom("webhook_endpoints")
		.selectAll()
		.where("user_id", "=", userId)
		.orderBy("created_at", "desc")
		.orderBy("id")
		.execute();
}

/** One of the person's endpoints; undefined for someone else's (it is not theirs to see). */
export function findWebhookEndpoint(
	db: Db,
	userId: string,
	id: string,
): Promise<WebhookEndpointRow | undefined> {
	return db
		.selectFrom("webhook_endpoints")
		.selectAll()
		.where("id", "=", id)
		.where("user_id", "=", userId)
		.executeTakeFirst();
}

/** Deletes one of the person's endpoints and its delivery log; false when there was none. */
export async function deleteWebhookEndpoint(db: Db, userId: string, id: string): Promise<boolean> {
	const row = await db
		.deleteFrom("webhook_endpoints")
		.where("id", "=", id)
		.where("user_id", "=", userId)
		.returning("id")
		.executeTakeFirst();
	return row !== undefined;
}

/**
 * Removes every endpoint a person saved up to `moment`, with its delivery log (deliveries still
 * queued find no endpoint and are not sent): taking the account back ends what whoever held it
 * before had set up.
 */
export async function removeEndpointsMadeBefore(
	db: Db,
	userId: string,
	moment: Date,
): Promise<void> {
	await db
		.deleteFrom("webhook_endpoints")
		.where("user_id", "=", userId)
		.where("created_at", "<=", moment)
		.execute();
}

/** The person's endpoints that subscribe to `type`. */
export function findSubscribedEndpoints(
	db: Db,
	userId: string,
	type: string,
): Promise<Array<{ id: string }>> {
	return db
		.selectFrom("webhook_endpoints")
		.select("id")
		.where("user_id", "=", userId)
		.where(sql<boolean>`${type} = any(events)`)
		.execute();
}

export async function insertWebhookDelivery(
	db: Db,
	row: { id: string; endpoint_id: string; type: string; body: string },
): Promise<WebhookDeliveryRow> {
	return db
		.insertInto("webhook_deliveries")
		.values({ ...row, next_attempt_at: sql<Date>`now()` })
		.returningAll()
		.executeTakeFirstOrThrow();
}

/**
 * Records a delivery that is not sent: its endpoint already has as many waiting as it may. It
 * stays in the log, failed, saying why.
 */
export async function insertDroppedWebhookDelivery(
	db: Db,
	row: { id: string; endpoint_id: string; type: string; body: string; reason: string },
): Promise<WebhookDeliveryRow> {
	const { reason, ...delivery } = row;
	return db
		.insertInto("webhook_deliveries")
		.values({ ...delivery, status: "failed", last_error: reason, next_attempt_at: null })
		.returningAll()
		.executeTakeFirstOrThrow();
}

/** How many of the endpoint's deliveries wait for their first or next attempt. */
export async function countPendingDeliveries(db: Db, endpointId: string): Promise<number> {
	const row = await db
		.selectFrom("webhook_deliveries")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("endpoint_id", "=", endpointId)
		.where("status", "=", "pending")
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** Deletes delivered and failed deliveries made more than `days` days ago; answers how many. */
export async function deleteSettledDeliveries(db: Db, days: number): Promise<number> {
	const result = await db
		.deleteFrom("webhook_deliveries")
		.where("status", "<>", "pending")
		.where("created_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
		.executeTakeFirst();
	return Number(result.numDeletedRows);
}

export function listWebhookDeliveries(db: Db, endpointId: string): Promise<WebhookDeliveryRow[]> {
	return db
		.selectFrom("webhook_deliveries")
		.selectAll()
		.where("endpoint_id", "=", endpointId)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc")
		.limit(DELIVERY_LOG_LENGTH)
		.execute();
}

/** What an attempt needs: the delivery, and where and with what it is signed. */
export function findDeliveryToAttempt(db: Db, id: string) {
	return db
		.selectFrom("webhook_deliveries")
		.innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
		.select([
			"webhook_deliveries.id",
			"webhook_deliveries.body",
			"webhook_deliveries.status",
			"webhook_deliveries.attempts",
			"webhook_endpoints.url",
			"webhook_endpoints.sealed_secret",
		])
		.where("webhook_deliveries.id", "=", id)
		.executeTakeFirst();
}

/**
 * Records attempt number `attempt`, once: only while the delivery is pending and this attempt is
 * the next one, so a job that runs twice (its first worker died after sending) records nothing
 * the second time. False when it was already recorded, or the delivery is gone.
 */
export async function recordWebhookAttempt(
	db: Db,
	id: string,
	attempt: number,
	outcome: {
		status: "pending" | "delivered" | "failed";
		statusCode: number | null;
		error: string | null;
		response: string | null;
		nextAttemptInMs: number | null;
	},
): Promise<boolean> {
	const row = await db
		.updateTable("webhook_deliveries")
		.set({
			status: outcome.status,
			attempts: attempt,
			last_status_code: outcome.statusCode,
			last_error: outcome.error,
			last_response: outcome.response,
			last_attempt_at: sql<Date>`now()`,
			next_attempt_at:
				outcome.nextAttemptInMs === null
					? null
					: sql<Date>`now() + make_interval(secs => ${outcome.nextAttemptInMs / 1000})`,
		})
		.where("id", "=", id)
		.where("status", "=", "pending")
		.where("attempts", "=", attempt - 1)
		.returning("id")
		.executeTakeFirst();
	return row !== undefined;
}
