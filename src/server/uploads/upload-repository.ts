import type { Kysely, Selectable, Transaction } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** An upload as its row keeps it. */
export type UploadRow = Selectable<DatabaseSchema["uploads"]>;

/** Records an upload already written to storage under `storage_key`. */
export async function insertUpload(
	db: Db,
	upload: Omit<UploadRow, "created_at" | "used_at">,
): Promise<UploadRow> {
	return db.insertInto("uploads").values(upload).returningAll().executeTakeFirstOrThrow();
}

/**
 * The person's upload with this id, or undefined: another person's upload is not theirs to name
 * (answered 404 like every other id of theirs), and an id of the wrong form finds nothing.
 */
export async function findOwnUpload(
	db: Db,
	userId: string,
	uploadId: string,
): Promise<UploadRow | undefined> {
	if (!UUID_PATTERN.test(uploadId)) return undefined;
	return db
		.selectFrom("uploads")
		.selectAll()
		.where("id", "=", uploadId)
		.where("user_id", "=", userId)
		.executeTakeFirst();
}

/** Marks an upload used by a generation, so the daily removal of unused uploads keeps it. */
export async function markUploadUsed(db: Db, uploadId: string): Promise<void> {
	await db
		.updateTable("uploads")
		.set({ used_at: new Date() })
		.where("id", "=", uploadId)
		.where("used_at", "is", null)
		.execute();
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
