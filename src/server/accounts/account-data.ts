import type { Kysely } from "kysely";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import { notifyGenerationChanged } from "../generations/generation-repository";
import { cancelProviderJob, type GenerationDeps } from "../generations/generation-service";
import { generationFolder } from "../generations/store-images";

/** Every generation of one person, newest first. */
export async function listOwnGenerations(
	db: Kysely<DatabaseSchema>,
	userId: string,
): Promise<GenerationRow[]> {
	return db
		.selectFrom("generations")
		.selectAll()
		.where("user_id", "=", userId)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc")
		.execute();
}

function isActive(row: GenerationRow): boolean {
	return row.status === "queued" || row.status === "running";
}

/**
 * Removes everything Atelier keeps for a person: their generations' stored images, the rows, and
 * the jobs still running for them. Finished generations' images go first, so a storage failure
 * stops the deletion with the account intact and everything still listed, to be tried again.
 */
export async function deleteUserData(
	deps: Pick<GenerationDeps, "database" | "storage" | "provider" | "imagesPerGeneration">,
	userId: string,
): Promise<void> {
	const db = deps.database.db;
	const finished = (await listOwnGenerations(db, userId)).filter((row) => !isActive(row));
	for (const row of finished) await deps.storage.deletePrefix(generationFolder(row.id));

	const deleted = await db
		.deleteFrom("generations")
		.where("user_id", "=", userId)
		.returningAll()
		.execute();
	for (const row of deleted) {
		// A worker running this generation notices the row is gone, stops and removes its images.
		await notifyGenerationChanged(db, row.id);
		if (isActive(row)) await cancelProviderJob(deps, row).catch(() => {});
		await deps.storage.deletePrefix(generationFolder(row.id));
	}
}
