import { type Kysely, sql, type Transaction } from "kysely";
import { ACTIVE_GENERATION_STATUSES } from "../../shared/generation-responses";
import type { DatabaseSchema, GenerationRow, NewGenerationRow } from "../db/schema";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export type GenerationWithOwner = GenerationRow & { owner_email?: string };

export const GENERATION_CHANGED_CHANNEL = "generation_changed";

export async function insertGeneration(
	db: Executor,
	row: NewGenerationRow,
): Promise<GenerationRow> {
	return db.insertInto("generations").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findGenerationById(
	db: Executor,
	id: string,
): Promise<GenerationRow | undefined> {
	return db.selectFrom("generations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function countActiveGenerations(db: Executor, userId: string): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

export async function countGenerationsSince(
	db: Executor,
	userId: string,
	since: Date,
): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.where("created_at", ">=", since)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

export type HistoryCursor = { createdAt: Date; id: string };

/** One page of history, newest first, keyed on (created_at, id) so new rows never shift a page. */
export async function selectGenerationPage(
	db: Executor,
	options: { userId: string | undefined; cursor: HistoryCursor | undefined; limit: number },
): Promise<GenerationWithOwner[]> {
	let query = db
		.selectFrom("generations")
		.selectAll("generations")
		.orderBy("generations.created_at", "desc")
		.orderBy("generations.id", "desc")
		.limit(options.limit);
	if (options.userId !== undefined) {
		query = query.where("generations.user_id", "=", options.userId);
	}
	if (options.cursor) {
		const { createdAt, id } = options.cursor;
		query = query.where(
			sql<boolean>`(generations.created_at, generations.id) < (${createdAt}::timestamptz, ${id}::uuid)`,
		);
	}
	if (options.userId !== undefined) return query.execute();
	return query
		.innerJoin("user", "user.id", "generations.user_id")
		.select("user.email as owner_email")
		.execute();
}

/**
 * The total and today's count for the summary line; `userId` undefined counts everyone's. The total
 * comes from the counter a trigger keeps; today's rows are a short index range.
 */
export async function countHistory(
	db: Executor,
	options: { userId: string | undefined; todayStart: Date },
): Promise<{ total: number; today: number }> {
	let totalQuery = db
		.selectFrom("generation_counts")
		.select(sql<string>`coalesce(sum(total), 0)`.as("total"));
	let todayQuery = db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("today"))
		.where("created_at", ">=", options.todayStart);
	if (options.userId !== undefined) {
		totalQuery = totalQuery.where("user_id", "=", options.userId);
		todayQuery = todayQuery.where("user_id", "=", options.userId);
	}
	const [total, today] = await Promise.all([
		totalQuery.executeTakeFirstOrThrow(),
		todayQuery.executeTakeFirstOrThrow(),
	]);
	return { total: Number(total.total), today: Number(today.today) };
}

export async function deleteGenerationRow(
	db: Executor,
	id: string,
): Promise<GenerationRow | undefined> {
	return db.deleteFrom("generations").where("id", "=", id).returningAll().executeTakeFirst();
}

/** Tells every server process (and so every waiting poll) that a generation changed. */
export async function notifyGenerationChanged(db: Executor, id: string): Promise<void> {
	await sql`select pg_notify(${GENERATION_CHANGED_CHANNEL}, ${id})`.execute(db);
}
