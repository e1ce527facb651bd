import type { ColumnType } from "kysely";
import type { Timestamp } from "./timestamps";

/** A person's own style (prompts/styles-repository.ts). */
export type PromptStylesTable = {
	id: string;
	user_id: string;
	name: string;
	prompt: string;
	negative_prompt: string | null;
	created_at: Timestamp;
	updated_at: Timestamp;
};

/** A person's last distinct prompts (prompts/recent-prompts-repository.ts). */
export type RecentPromptsTable = {
	user_id: string;
	prompt: string;
	last_used_at: Timestamp;
};

/** One rewrite asked of the operator's chat endpoint (Enhance), for the Usage page. */
export type PromptEnhancementsTable = {
	id: string;
	user_id: string;
	created_at: ColumnType<Date, Date | undefined, never>;
};
