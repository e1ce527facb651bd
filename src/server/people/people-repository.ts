import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { PeopleSortKey, SortOrder } from "../../shared/people";
import type { DatabaseSchema } from "../db/schema";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The first day of the current month in UTC, the month "this month" counts. */
function currentMonthStart(now: Date): string {
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
}

/** `like` matches its pattern's % and _ literally once escaped. */
function containsPattern(search: string): string {
	return `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function selectPeople(db: Executor, now: Date) {
	const month = currentMonthStart(now);
	return db
		.selectFrom("user")
		.leftJoin("person_usage as usage", "usage.user_id", "user.id")
		.leftJoin("person_controls as controls", "controls.user_id", "user.id")
		.select([
			"user.id",
			"user.email",
			"user.createdAt as signed_up_at",
			"usage.last_active_at",
			sql<string>`coalesce(usage.generations, 0)`.as("generations"),
			sql<string>`case when usage.month_start = ${month}::date then usage.month_generations else 0 end`.as(
				"month_generations",
			),
			sql<string>`coalesce(usage.images, 0)`.as("images"),
			sql<string>`coalesce(usage.image_bytes, 0)`.as("image_bytes"),
			sql<string>`coalesce(usage.spend, 0)`.as("spend"),
			"controls.disabled_at",
			"controls.max_active",
			"controls.daily_limit",
		]);
}

export type PersonRow = Awaited<ReturnType<ReturnType<typeof selectPeople>["execute"]>>[number];

/** What each column sorts by; the same expressions the listing selects. */
function sortExpression(key: PeopleSortKey, now: Date): Expression<unknown> {
	switch (key) {
		case "email":
			return sql`"user".email`;
		case "signedUp":
			return sql`"user"."createdAt"`;
		case "lastActive":
			return sql`usage.last_active_at`;
		case "generations":
			return sql`coalesce(usage.generations, 0)`;
		case "generationsThisMonth":
			return sql`case when usage.month_start = ${currentMonthStart(now)}::date then usage.month_generations else 0 end`;
		case "images":
			return sql`coalesce(usage.images, 0)`;
		case "bytes":
			return sql`coalesce(usage.image_bytes, 0)`;
		case "spend":
			return sql`coalesce(usage.spend, 0)`;
		case "status":
			return sql`controls.disabled_at is not null`;
	}
}

function matchesSearch(search: string | undefined): Expression<SqlBool> {
	if (!search) return sql<SqlBool>`true`;
	return sql<SqlBool>`lower("user".email) like ${containsPattern(search)}`;
}

/**
 * One page of people, sorted by one column (then by id, so equal values keep one order across
 * pages), e-mail searched anywhere in the address. Never-seen people sort last either way.
 */
export async function selectPeoplePage(
	db: Executor,
	options: {
		search: string | undefined;
		sort: PeopleSortKey;
		order: SortOrder;
		offset: number;
		limit: number;
		now: Date;
	},
): Promise<PersonRow[]> {
	const direction = options.order === "asc" ? sql`asc` : sql`desc`;
	return selectPeople(db, options.now)
		.where(matchesSearch(options.search))
		.orderBy(sql`${sortExpression(options.sort, options.now)} ${direction} nulls last`)
		.orderBy(sql`"user".id ${direction}`)
		.offset(options.offset)
		.limit(options.limit)
		.execute();
}

/** How many people the search matches (everyone without one). */
export async function countPeople(db: Executor, search: string | undefined): Promise<number> {
	const row = await db
		.selectFrom("user")
		.select(sql<string>`count(*)`.as("count"))
		.where(matchesSearch(search))
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** One person as the listing shows them, or undefined when there is no such person. */
export async function selectPerson(
	db: Executor,
	id: string,
	now: Date,
): Promise<PersonRow | undefined> {
	return selectPeople(db, now).where("user.id", "=", id).executeTakeFirst();
}

/** Sets what the administrator controls of one person; fields not given are left as they are. */
export async function upsertPersonControls(
	db: Executor,
	userId: string,
	controls: { disabledAt?: Date | null; maxActive?: number | null; dailyLimit?: number | null },
): Promise<void> {
	const values = {
		...(controls.disabledAt === undefined ? {} : { disabled_at: controls.disabledAt }),
		...(controls.maxActive === undefined ? {} : { max_active: controls.maxActive }),
		...(controls.dailyLimit === undefined ? {} : { daily_limit: controls.dailyLimit }),
	};
	await db
		.insertInto("person_controls")
		.values({ user_id: userId, ...values, updated_at: new Date() })
		.onConflict((conflict) =>
			conflict.column("user_id").doUpdateSet({ ...values, updated_at: new Date() }),
		)
		.execute();
}

/** Ends every session of a person at once (in every process: sessions live in the database). */
export async function deleteSessionsOf(db: Executor, userId: string): Promise<void> {
	await db.deleteFrom("session").where("userId", "=", userId).execute();
}
