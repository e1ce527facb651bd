import {
	type Expression,
	type ExpressionBuilder,
	type Kysely,
	type SqlBool,
	sql,
	type Transaction,
} from "kysely";
import type { AspectRatio } from "../../shared/aspect-ratios";
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

/** Which part of the history a page shows; every filter is optional and they combine. */
export type HistoryFilters = {
	/** One person's history; undefined is everyone's (the administrator's view). */
	userId: string | undefined;
	/** Matched anywhere in the prompt, any case (trimmed, non-empty). */
	search?: string | undefined;
	aspectRatio?: AspectRatio | undefined;
	isFavoritesOnly?: boolean;
};

/** `like` treats `%`, `_` and `\` as wildcards and escape: searched text means only itself. */
export function escapeLikePattern(text: string): string {
	return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function matchesFilters(filters: HistoryFilters) {
	return (eb: ExpressionBuilder<DatabaseSchema, "generations">) => {
		const conditions: Expression<SqlBool>[] = [];
		if (filters.userId !== undefined) {
			conditions.push(eb("generations.user_id", "=", filters.userId));
		}
		if (filters.aspectRatio !== undefined) {
			conditions.push(eb("generations.aspect_ratio", "=", filters.aspectRatio));
		}
		// Spelled without a parameter so the planner can match the partial favourites indexes.
		if (filters.isFavoritesOnly) conditions.push(sql<SqlBool>`generations.is_favorite`);
		if (filters.search) {
			// prompt_search is lower(prompt), kept by the database; its trigram index serves this.
			const pattern = `%${escapeLikePattern(filters.search)}%`;
			conditions.push(sql<SqlBool>`generations.prompt_search like lower(${pattern})`);
		}
		return eb.and(conditions);
	};
}

function isNarrowed(filters: HistoryFilters): boolean {
	return Boolean(filters.search || filters.aspectRatio || filters.isFavoritesOnly);
}

/** One page of history, newest first, keyed on (created_at, id) so new rows never shift a page. */
export async function selectGenerationPage(
	db: Executor,
	options: {
		filters: HistoryFilters;
		cursor: HistoryCursor | undefined;
		limit: number;
		/** Add each row's owner e-mail (the administrator's view). */
		isOwnerShown: boolean;
	},
): Promise<GenerationWithOwner[]> {
	let query = db
		.selectFrom("generations")
		.selectAll("generations")
		.where(matchesFilters(options.filters))
		.orderBy("generations.created_at", "desc")
		.orderBy("generations.id", "desc")
		.limit(options.limit);
	if (options.cursor) {
		const { createdAt, id } = options.cursor;
		query = query.where(
			sql<boolean>`(generations.created_at, generations.id) < (${createdAt}::timestamptz, ${id}::uuid)`,
		);
	}
	if (!options.isOwnerShown) return query.execute();
	return query
		.innerJoin("user", "user.id", "generations.user_id")
		.select("user.email as owner_email")
		.execute();
}

/**
 * The total and today's count of what the filters match, for the summary line. Unfiltered, the
 * total comes from the counter a trigger keeps and today's rows are a short index range; filtered,
 * both come from one pass over the matching rows.
 */
export async function countHistory(
	db: Executor,
	options: { filters: HistoryFilters; todayStart: Date },
): Promise<{ total: number; today: number }> {
	const { filters, todayStart } = options;
	if (isNarrowed(filters)) {
		const row = await db
			.selectFrom("generations")
			.select([
				sql<string>`count(*)`.as("total"),
				sql<string>`count(*) filter (where generations.created_at >= ${todayStart})`.as("today"),
			])
			.where(matchesFilters(filters))
			.executeTakeFirstOrThrow();
		return { total: Number(row.total), today: Number(row.today) };
	}
	let totalQuery = db
		.selectFrom("generation_counts")
		.select(sql<string>`coalesce(sum(total), 0)`.as("total"));
	let todayQuery = db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("today"))
		.where("created_at", ">=", todayStart);
	if (filters.userId !== undefined) {
		totalQuery = totalQuery.where("user_id", "=", filters.userId);
		todayQuery = todayQuery.where("user_id", "=", filters.userId);
	}
	const [total, today] = await Promise.all([
		totalQuery.executeTakeFirstOrThrow(),
		todayQuery.executeTakeFirstOrThrow(),
	]);
	return { total: Number(total.total), today: Number(today.today) };
}

/** The account an e-mail belongs to (e-mails are stored lowercased), if any. */
export async function findUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
	const row = await db
		.selectFrom("user")
		.select("id")
		.where("email", "=", email)
		.executeTakeFirst();
	return row?.id;
}

/** The generations among `ids` (of one person, or anyone's), newest first. */
export async function selectGenerationsByIds(
	db: Executor,
	options: { ids: readonly string[]; userId: string | undefined },
): Promise<GenerationRow[]> {
	let query = db
		.selectFrom("generations")
		.selectAll()
		.where("id", "in", options.ids)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc");
	if (options.userId !== undefined) query = query.where("user_id", "=", options.userId);
	return query.execute();
}

/** Deletes the generations among `ids` (of one person, or anyone's) and returns them, with their owners' e-mails. */
export async function deleteGenerationRows(
	db: Executor,
	options: { ids: readonly string[]; userId: string | undefined },
): Promise<Array<GenerationRow & { owner_email: string }>> {
	let query = db.deleteFrom("generations").where("id", "in", options.ids);
	if (options.userId !== undefined) query = query.where("user_id", "=", options.userId);
	return query
		.returningAll("generations")
		.returning((eb) =>
			eb
				.selectFrom("user")
				.select("user.email")
				.whereRef("user.id", "=", "generations.user_id")
				.$asScalar()
				.$notNull()
				.as("owner_email"),
		)
		.execute();
}

/** Tells every server process, when the transaction commits, that these generations changed. */
export async function notifyGenerationsChanged(
	db: Executor,
	ids: readonly string[],
): Promise<void> {
	await sql`select pg_notify(${GENERATION_CHANGED_CHANNEL}, id) from unnest(${[...ids]}::text[]) as id`.execute(
		db,
	);
}

/** Tells every server process (and so every waiting poll) that a generation changed. */
export async function notifyGenerationChanged(db: Executor, id: string): Promise<void> {
	await sql`select pg_notify(${GENERATION_CHANGED_CHANNEL}, ${id})`.execute(db);
}
