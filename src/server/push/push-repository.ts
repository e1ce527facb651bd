import { type Kysely, type Selectable, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema>;

export type PushSubscriptionRow = Selectable<DatabaseSchema["push_subscriptions"]>;

/**
 * Records a subscription in place of any with the same endpoint (a browser subscribing again,
 * whoever it was for before), unless the person already has `maxSubscriptions` other ones:
 * undefined then. The count and the insert hold the person's lock, so subscriptions saved at the
 * same instant cannot pass the limit together.
 */
export async function replacePushSubscription(
	db: Db,
	row: Omit<PushSubscriptionRow, "created_at" | "last_notified_at">,
	maxSubscriptions: number,
): Promise<PushSubscriptionRow | undefined> {
	return db.transaction().execute(async (transaction) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`atelier:push-subscriptions:${row.user_id}`}))`.execute(
			transaction,
		);
		await transaction
			.deleteFrom("push_subscriptions")
			.where("endpoint", "=", row.endpoint)
			.execute();
		const { count } = await transaction
			.selectFrom("push_subscriptions")
			.select((eb) => eb.fn.countAll<string>().as("count"))
			.where("user_id", "=", row.user_id)
			.executeTakeFirstOrThrow();
		if (Number(count) >= maxSubscriptions) return undefined;
		return transaction
			.insertInto("push_subscriptions")
			.values(row)
			.returningAll()
			.executeTakeFirstOrThrow();
	});
}

/** The person's subscriptions, oldest first. */
export function listPushSubscriptions(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
	return db
		.selectFrom("push_subscriptions")
		.selectAll()
		.where("user_id", "=", userId)
		.orderBy("created_at")
		.orderBy("id")
		.execute();
}

/** The person's subscriptions a push can reach: those made with the server's current key. */
export function listReachableSubscriptions(
	db: Db,
	userId: string,
	vapidPublicKey: string,
): Promise<PushSubscriptionRow[]> {
	return db
		.selectFrom("push_subscriptions")
		.selectAll()
		.where("user_id", "=", userId)
		.where("vapid_public_key", "=", vapidPublicKey)
		.orderBy("id")
		.execute();
}

/** One of the person's subscriptions; undefined for someone else's (it is not theirs to see). */
export function findPushSubscription(
	db: Db,
	userId: string,
	id: string,
): Promise<PushSubscriptionRow | undefined> {
	return db
		.selectFrom("push_subscriptions")
		.selectAll()
		.where("user_id", "=", userId)
		.where("id", "=", id)
		.executeTakeFirst();
}

/** A subscription a queued push goes to; undefined once it was removed. */
export function findSubscriptionToPush(
	db: Db,
	id: string,
): Promise<PushSubscriptionRow | undefined> {
	return db.selectFrom("push_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Removes one of the person's subscriptions; false when they have none by that id. */
export async function deletePushSubscription(db: Db, userId: string, id: string): Promise<boolean> {
	const result = await db
		.deleteFrom("push_subscriptions")
		.where("user_id", "=", userId)
		.where("id", "=", id)
		.executeTakeFirst();
	return result.numDeletedRows > 0n;
}

/** A push service said the subscription is gone (404, 410): it never comes back. */
export async function forgetPushSubscription(db: Db, id: string): Promise<void> {
	await db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
}

/** The push service took a message for the device. */
export async function markPushNotified(db: Db, id: string): Promise<void> {
	await db
		.updateTable("push_subscriptions")
		.set({ last_notified_at: sql`now()` })
		.where("id", "=", id)
		.execute();
}
