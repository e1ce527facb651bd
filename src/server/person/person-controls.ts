import type { Kysely, Transaction } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A person's generation limits (the shape of generations/generation-deps.ts's GenerationLimits). */
type Limits = { maxActivePerUser: number; dailyLimitPerUser: number };

/**
 * Whether the administrator has disabled this person. The one check every way in asks: a session
 * being read or made (auth/auth.ts), and anything else that acts for a person. Read from the
 * database on every call, so a disable takes effect at once in every server process.
 */
export async function isPersonDisabled(db: Executor, userId: string): Promise<boolean> {
	const row = await db
		.selectFrom("people")
		.select("disabled_at")
		.where("user_id", "=", userId)
		.executeTakeFirst();
	return row?.disabled_at != null;
}

/** The person's generation limits: their own where the administrator set them, else the defaults. */
export async function readPersonLimits(
	db: Executor,
	userId: string,
	defaults: Limits,
): Promise<Limits> {
	const row = await db
		.selectFrom("people")
		.select(["max_active", "daily_limit"])
		.where("user_id", "=", userId)
		.executeTakeFirst();
	return {
		maxActivePerUser: row?.max_active ?? defaults.maxActivePerUser,
		dailyLimitPerUser: row?.daily_limit ?? defaults.dailyLimitPerUser,
	};
}
