import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
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

/**
 * Records an upload unless the person already keeps `maxUnused` uploads no generation used;
 * undefined then. The count and the insert hold the person's lock, so uploads sent at the same
 * instant cannot pass the limit together.
 */
export async function insertUploadWithinLimit(
	db: Kysely<DatabaseSchema>,
	upload: Omit<UploadRow, "created_at" | "used_at">,
	maxUnused: number,
): Promise<UploadRow | undefined> {
	return db.transaction().execute(async (transaction) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`atelier:uploads:${upload.user_id}`}))`.execute(
			transaction,
		);
		if ((await countUnusedUploads(transaction, upload.user_id)) >= maxUnused) return undefined;
		return insertUpload(transaction, upload);
	});
}

/** How many of the person's uploads no generation has used yet. */
export async function countUnusedUploads(db: Db, userId: string): Promise<number> {
	const row = await db
		.selectFrom("uploads")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("user_id", "=", userId)
		.where("used_at", "is", null)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/**
 * Deletes up to `limit` uploads no generation used that were made before `before`, answering
 * their storage keys. A generation marking one used at that moment wins or loses as a whole:
 * the delete re-reads `used_at` of a row it had to wait for.
 */
export async function deleteUnusedUploads(db: Db, before: Date, limit: number): Promise<string[]> {
	const rows = await db
		.deleteFrom("uploads")
		.where(
			"id",
			"in",
			db
				.selectFrom("uploads")
				.select("id")
				.where("used_at", "is", null)
				.where("created_at", "<", before)
				.orderBy("created_at")
				.limit(limit),
		)
		.where("used_at", "is", null)
		.returning("storage_key")
		.execute();
	return rows.map((row) => row.storage_key);
}

/** Deletes every upload of the person (their account is being deleted), answering the keys. */
export async function deleteUploadsOf(db: Db, userId: string): Promise<string[]> {
	const rows = await db
		.deleteFrom("uploads")
		.where("user_id", "=", userId)
		.returning("storage_key")
		.execute();
	return rows.map((row) => row.storage_key);
}

/** Of these ids, the ones that have a row (the sweep of objects no upload names). */
export async function selectExistingUploadIds(db: Db, ids: readonly string[]): Promise<string[]> {
	if (ids.length === 0) return [];
	const rows = await db.selectFrom("uploads").select("id").where("id", "in", ids).execute();
	return rows.map((row) => row.id);
}
