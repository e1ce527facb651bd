import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema";

// Enhance's calls (decision 039), the `prompt_enhancements` table: one row a rewrite asked of the
// operator's chat endpoint, which the Usage page counts per person (usage/usage-repository.ts).

/** Records one call to the chat endpoint, made now. */
export async function recordEnhancement(
	db: Kysely<DatabaseSchema>,
	row: { id: string; user_id: string },
): Promise<void> {
	await db.insertInto("prompt_enhancements").values(row).execute();
}
