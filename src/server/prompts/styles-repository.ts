import type { Kysely, Selectable, Transaction } from "kysely";
import type { DatabaseSchema } from "../db/schema";

// A person's own styles, the `prompt_styles` table; the operator's are STYLES_FILE's.

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export type PersonalStyleRow = Selectable<DatabaseSchema["prompt_styles"]>;

/** The person's styles by name. */
export function listPersonalStyles(db: Executor, userId: string): Promise<PersonalStyleRow[]> {
	return db
		.selectFrom("prompt_styles")
		.selectAll()
		.where("user_id", "=", userId)
		.orderBy("name")
		.orderBy("id")
		.execute();
}

/** One of the person's styles; someone else's is not found. */
export function findPersonalStyle(
	db: Executor,
	userId: string,
	id: string,
): Promise<PersonalStyleRow | undefined> {
	return db
		.selectFrom("prompt_styles")
		.selectAll()
		.where("user_id", "=", userId)
		.where("id", "=", id)
		.executeTakeFirst();
}

export async function countPersonalStyles(db: Executor, userId: string): Promise<number> {
	const row = await db
		.selectFrom("prompt_styles")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("user_id", "=", userId)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

export async function insertPersonalStyle(
	db: Executor,
	row: {
		id: string;
		user_id: string;
		name: string;
		prompt: string;
		negative_prompt: string | null;
	},
): Promise<PersonalStyleRow> {
	const now = new Date();
	return db
		.insertInto("prompt_styles")
		.values({ ...row, created_at: now, updated_at: now })
		.returningAll()
		.executeTakeFirstOrThrow();
}

/** Changes one of the person's styles; undefined when they have none of that id. */
export function updatePersonalStyle(
	db: Executor,
	userId: string,
	id: string,
	changes: { name?: string; prompt?: string; negative_prompt?: string | null },
): Promise<PersonalStyleRow | undefined> {
	return db
		.updateTable("prompt_styles")
		.set({ ...changes, updated_at: new Date() })
		.where("user_id", "=", userId)
		.where("id", "=", id)
		.returningAll()
		.executeTakeFirst();
}

/** Deletes one of the person's styles; false when they have none of that id. */
export async function deletePersonalStyle(
	db: Executor,
	userId: string,
	id: string,
): Promise<boolean> {
	const result = await db
		.deleteFrom("prompt_styles")
		.where("user_id", "=", userId)
		.where("id", "=", id)
		.executeTakeFirst();
	return result.numDeletedRows > 0n;
}
