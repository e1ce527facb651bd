import { ACTIVE_GENERATION_STATUSES } from "../../../shared/generation-responses";
import { GenerationIdSchema } from "../../../shared/generations";
import { insertDeletionEntries } from "../../audit/audit-log-repository";
import type { GenerationRow } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { notifyGenerationsChanged, QUEUE_MOVED_KEY } from "../generation-events";
import { inputOf } from "../generation-input";
import { deleteGenerationRows, type GenerationSelection } from "../generation-repository";
import { generationFolder } from "../run/store-images";

export type DeletionDeps = Pick<GenerationDeps, "database" | "storage" | "models" | "logger">;

/** Stops the provider's job of a generation that is no longer wanted, where the provider can. */
export async function cancelProviderJob(deps: DeletionDeps, row: GenerationRow): Promise<void> {
	const provider = deps.models.find(row.model_id)?.provider;
	if (!row.api_id || !provider?.cancel) return;
	await provider.cancel({ jobId: row.api_id, input: inputOf(row) });
}

/** Ids as the client sent them: any that is not an id of ours is an unknown one. */
export function parseGenerationIds(ids: readonly string[]): string[] {
	if (!ids.every((id) => GenerationIdSchema.safeParse(id).success)) {
		throw new AppError("NOT_FOUND");
	}
	return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/**
 * What deleted generations leave once their rows are gone: every stored object under each one's
 * folder (whichever run wrote it), and the provider's job of one still running.
 */
async function removeLeftovers(deps: DeletionDeps, rows: readonly GenerationRow[]): Promise<void> {
	for (const row of rows) {
		try {
			await deps.storage.deletePrefix(generationFolder(row.id));
		} catch (error) {
			// No generation names these objects any more: the stray-object sweep removes them later.
			deps.logger.warn("stored images of a deleted generation were not removed", {
				generationId: row.id,
				error,
			});
		}
		if (ACTIVE_GENERATION_STATUSES.includes(row.status)) {
			await cancelProviderJob(deps, row).catch(() => {});
		}
	}
}

/**
 * The one way generations are deleted: one, several, the administrator's moderation and a
 * deleted account's (`"all"`: every generation of the viewer's own).
 *
 * Listed ids go all or none: every one must be one the viewer may delete (the owner's; the
 * administrator: any), else NOT_FOUND and nothing changes. In the same transaction, each deletion
 * of another person's generation by the administrator is written to the audit log.
 *
 * The rows go first, then the stored objects (docs/decisions/014-deleting-generations.md): a crash
 * or a storage failure in between leaves objects no generation names, which the stray-object
 * sweep removes, never a generation whose images are gone. A run still working on a deleted
 * generation notices that it lost it, removes what it stored and stops.
 */
export async function deleteGenerations(
	deps: DeletionDeps,
	viewer: Viewer,
	ids: readonly string[] | "all",
): Promise<number> {
	const wanted = ids === "all" ? undefined : parseGenerationIds(ids);
	const selection: GenerationSelection = wanted
		? { ids: wanted, userId: viewer.isAdmin ? undefined : viewer.id }
		: { allOf: viewer.id };
	const deleted = await deps.database.db.transaction().execute(async (transaction) => {
		const rows = await deleteGenerationRows(transaction, selection);
		// Throwing rolls the transaction back: nothing is deleted.
		if (wanted && rows.length !== wanted.length) throw new AppError("NOT_FOUND");
		await insertDeletionEntries(
			transaction,
			viewer,
			rows
				.filter((row) => row.user_id !== viewer.id)
				.map((row) => ({
					generationId: row.id,
					prompt: row.prompt,
					ownerId: row.user_id,
					ownerEmail: row.owner_email,
				})),
		);
		// The queue moves too when a queued one goes: the positions behind it are one less.
		await notifyGenerationsChanged(transaction, [...rows.map((row) => row.id), QUEUE_MOVED_KEY]);
		return rows;
	});
	await removeLeftovers(deps, deleted);
	return deleted.length;
}

/** Deletes one generation, like `deleteGenerations`. */
export async function deleteGeneration(
	deps: DeletionDeps,
	viewer: Viewer,
	id: string,
): Promise<void> {
	await deleteGenerations(deps, viewer, [id]);
}
