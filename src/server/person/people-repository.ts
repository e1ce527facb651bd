import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { PeopleSortKey, SortOrder } from "../../shared/admin/people";
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
	return db
		.selectFrom("people")
		.select([
			"user_id as id",
			"email",
			"signed_up_at",
			"last_active_at",
			"generations",
			sql<string>`case when month_start = ${currentMonthStart(now)}::date then month_generations else 0 end`.as(
				"month_generations",
			),
			"images",
			"image_bytes",
			"spend",
			"disabled_at",
			"max_active",
			"daily_limit",
		]);
}

export type PersonRow = Awaited<ReturnType<ReturnType<typeof selectPeople>["execute"]>>[number];

/**
 * What each column sorts by: the expressions the indexes of migration 0008 are made on, so a first
 * page reads 50 rows of an index (this month's count, which resets each month, is sorted instead).
 */
function sortExpression(key: PeopleSortKey, now: Date): Expression<unknown> {
	switch (key) {
		case "email":
			return sql`email`;
		case "signedUp":
			return sql`signed_up_at`;
		case "lastActive":
			return sql`last_active_at`;
		case "generations":
			return sql`generations`;
		case "generationsThisMonth":
			return sql`case when month_start = ${currentMonthStart(now)}::date then month_generations else 0 end`;
		case "images":
			return sql`images`;
		case "bytes":
			return sql`image_bytes`;
		case "spend":
			return sql`spend`;
		case "status":
			return sql`(disabled_at is not null)`;
	}
}

function matchesSearch(search: string | undefined): Expression<SqlBool> {
	if (!search) return sql<SqlBool>`true`;
	return sql<SqlBool>`lower(email) like ${containsPattern(search)}`;
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
		.orderBy(sql`user_id ${direction}`)
		.offset(options.offset)
		.limit(options.limit)
		.execute();
}

/** How many people the search matches (everyone without one). */
export async function countPeople(db: Executor, search: string | undefined): Promise<number> {
	const row = await db
		.selectFrom("people")
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
	return selectPeople(db, now).where("user_id", "=", id).executeTakeFirst();
}

/** Sets what the administrator controls of one person; fields not given are left as they are. */
export async function updatePersonControls(
	db: Executor,
	userId: string,
	controls: { disabledAt?: Date | null; maxActive?: number | null; dailyLimit?: number | null },
): Promise<void> {
	await db
		.updateTable("people")
		.set({
			...(controls.disabledAt === undefined ? {} : { disabled_at: controls.disabledAt }),
			...(controls.maxActive === undefined ? {} : { max_active: controls.maxActive }),
			...(controls.dailyLimit === undefined ? {} : { daily_limit: controls.dailyLimit }),
		})
		.where("user_id", "=", userId)
		.execute();
}

/** Ends every session of a person at once (in every process: sessions live in the database). */
export async function deleteSessionsOf(db: Executor, userId: string): Promise<void> {
	await db.deleteFrom("session").where("userId", "=", userId).execute();
}
