import type { ColumnType } from "kysely";
import type { NullableTimestamp, Timestamp } from "./timestamps";

/** A link to a generation or one of its images (sharing/): its token kept as a SHA-256 only. */
export type SharesTable = {
	id: string;
	user_id: string;
	/** Null once the generation is deleted: the link has ended. */
	generation_id: string | null;
	/** One image of the generation; null for all of them. */
	image_index: number | null;
	/** A board's link (migration 0031); null once the board is deleted, and for a generation's. */
	board_id: ColumnType<string | null, string | null | undefined, string | null>;
	token_hash: string;
	/** Null for a link that does not expire. */
	expires_at: NullableTimestamp;
	originals: boolean;
	show_prompt: boolean;
	created_at: Timestamp;
	revoked_at: NullableTimestamp;
	hidden_at: NullableTimestamp;
	views: ColumnType<number, number | undefined, number>;
	last_viewed_at: NullableTimestamp;
};

/** A visitor's report about a shared link: the administrator's queue. */
export type ShareReportsTable = {
	id: string;
	share_id: string;
	reason: string;
	created_at: Timestamp;
};
