import type { Kysely } from "kysely";
import { UNUSED_UPLOAD_MS } from "../../shared/image-input/image-input";
import type { DatabaseSchema } from "../db/schema";
import type { Storage } from "../storage/storage";
import { deleteUnusedUploads, deleteUploadsOf, selectExistingUploadIds } from "./upload-repository";
import { readUploadKey, UPLOADS_FOLDER, uploadFolder } from "./upload-storage";

type RemovalDeps = { db: Kysely<DatabaseSchema>; storage: Storage };

/** Rows deleted in one statement: a long backlog goes in several short ones. */
const BATCH_SIZE = 500;

/**
 * Removes the uploads no generation used within a day of their upload (UNUSED_UPLOAD_MS): rows
 * first, then their objects. Then the objects under uploads/ that no row names and that are older
 * than that (an upload whose row was never written, or whose object's removal failed); a younger
 * one may be an upload between its object and its row, and stays. Run by the hourly storage sweep
 * (generations/run/sweep-stray-objects.ts). Answers how many objects it removed.
 */
export async function removeUnusedUploads(
	deps: RemovalDeps,
	now: Date = new Date(),
): Promise<number> {
	const before = new Date(now.getTime() - UNUSED_UPLOAD_MS);
	let removed = 0;
	for (;;) {
		const keys = await deleteUnusedUploads(deps.db, before, BATCH_SIZE);
		if (keys.length > 0) await deps.storage.delete(keys);
		removed += keys.length;
		if (keys.length < BATCH_SIZE) break;
	}
	for await (const keys of deps.storage.listKeys(UPLOADS_FOLDER)) {
		const old = keys.flatMap((key) => {
			const named = readUploadKey(key);
			return named && named.madeAt < before.getTime() ? [{ key, id: named.id }] : [];
		});
		const recorded = new Set(
			await selectExistingUploadIds(
				deps.db,
				old.map((entry) => entry.id),
			),
		);
		const stray = old.filter((entry) => !recorded.has(entry.id)).map((entry) => entry.key);
		if (stray.length > 0) await deps.storage.delete(stray);
		removed += stray.length;
	}
	return removed;
}

/**
 * Removes every upload of a person whose account is being deleted: the rows, then the person's
 * whole folder (objects whose rows were never written go with it).
 */
export async function removeUploadsOf(deps: RemovalDeps, userId: string): Promise<void> {
	await deleteUploadsOf(deps.db, userId);
	await deps.storage.deletePrefix(uploadFolder(userId));
}
