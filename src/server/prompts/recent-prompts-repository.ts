import { type Kysely, sql, type Transaction } from "kysely";
import { MAX_RECENT_PROMPTS } from "../../shared/prompts/prompt-tool-responses";
import type { DatabaseSchema } from "../db/schema";

// A person's last distinct prompts (recall and the Recent menu), the `recent_prompts` table: one row
// a prompt, its last use moved forward when it is used again, at most MAX_RECENT_PROMPTS a person.

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** `like` treats `%`, `_` and `\` as wildcards and escape: searched text means only itself. */
function escapeLikePattern(text: string): string {
	return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Remembers a prompt the person used now, in the transaction that creates its generation, and
 * forgets their prompts past the newest MAX_RECENT_PROMPTS.
 */
export async function rememberPrompt(
	db: Executor,
	userId: string,
	prompt: string,
	usedAt: Date,
): Promise<void> {
	await db
		.insertInto("recent_prompts")
		.values({ user_id: userId, prompt, last_used_at: usedAt })
		.onConflict((conflict) =>
			conflict.columns(["user_id", "prompt"]).doUpdateSet({ last_used_at: usedAt }),
		)
		.execute();
	await sql`
		delete from recent_prompts
		where user_id = ${userId}
			and prompt not in (
				select prompt from recent_prompts
				where user_id = ${userId}
				order by last_used_at desc, prompt
				limit ${MAX_RECENT_PROMPTS}
			)`.execute(db);
}

/** The person's prompts, newest first; with `search`, those holding it, any case. */
export function listRecentPrompts(
	db: Executor,
	userId: string,
	search: string | undefined,
): Promise<{ prompt: string; last_used_at: Date }[]> {
	let query = db
		.selectFrom("recent_prompts")
		.select(["prompt", "last_used_at"])
		.where("user_id", "=", userId)
		.orderBy("last_used_at", "desc")
		.orderBy("prompt")
		.limit(MAX_RECENT_PROMPTS);
	if (search) {
		const pattern = `%${escapeLikePattern(search.toLowerCase())}%`;
		query = query.where(sql<boolean>`lower(prompt) like ${pattern}`);
	}
	return query.execute();
}

/** Forgets one of the person's prompts (or, without one, all of them); how many went. */
export async function removeRecentPrompts(
	db: Executor,
	userId: string,
	prompt: string | undefined,
): Promise<number> {
	let query = db.deleteFrom("recent_prompts").where("user_id", "=", userId);
	if (prompt !== undefined) query = query.where("prompt", "=", prompt);
	const result = await query.executeTakeFirst();
	return Number(result.numDeletedRows);
}
