import type { Transaction } from "kysely";
import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";
import { ACTIVE_GENERATION_STATUSES } from "../../../shared/generations/generation-responses";
import { GenerationIdSchema } from "../../../shared/generations/generations";
import { insertDeletionEntries } from "../../audit/audit-log-repository";
import type { DatabaseSchema, GenerationRow } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import { DEFAULT_TRASH_DAYS, type GenerationDeps } from "../generation-deps";
import { notifyGenerationsChanged, QUEUE_MOVED_KEY } from "../generation-events";
import { inputOf } from "../generation-input";
import { deleteGenerationRows, type GenerationSelection } from "../generation-repository";
import { cancelGenerations } from "../run/generation-lifecycle";
import { generationFolder } from "../run/store-images";
import { trashGenerationRows } from "../trash-repository";

export type DeletionDeps = Pick<GenerationDeps, "database" | "storage" | "models" | "logger"> &
	Partial<Pick<GenerationDeps, "limits" | "onDeleted">>;

/** TRASH_DAYS as configured: 0 means there is no Trash and deleting is for good. */
export function trashDaysOf(deps: Pick<DeletionDeps, "limits">): number {
	return deps.limits?.trashDays ?? DEFAULT_TRASH_DAYS;
}

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

type Owned = GenerationRow & { owner_email: string };

/** The administrator's actions on other people's generations, for the audit log. */
export function othersOf(
	viewer: Viewer,
	rows: readonly (Pick<GenerationRow, "id" | "prompt" | "user_id"> & { owner_email: string })[],
) {
	return rows
		.filter((row) => row.user_id !== viewer.id)
		.map((row) => ({
			generationId: row.id,
			prompt: row.prompt,
			ownerId: row.user_id,
			ownerEmail: row.owner_email,
		}));
}

/**
 * Deletes the selected rows for good in one transaction (`check` may refuse what it got, which
 * rolls everything back), with what `record` writes in the same transaction, then their stored
 * objects. The one deletion for good: Delete forever, emptying the Trash, the purge, an account's.
 * The selection may be worked out inside the transaction (the purge's, under its lock); none
 * deletes nothing.
 */
export async function deleteRowsForGood(
	deps: DeletionDeps,
	selection:
		| GenerationSelection
		| ((transaction: Transaction<DatabaseSchema>) => Promise<GenerationSelection | undefined>),
	options: {
		check?: (rows: readonly Owned[]) => void;
		record?: (transaction: Transaction<DatabaseSchema>, rows: readonly Owned[]) => Promise<void>;
	} = {},
): Promise<Owned[]> {
	const deleted = await deps.database.db.transaction().execute(async (transaction) => {
		const selected = typeof selection === "function" ? await selection(transaction) : selection;
		if (!selected) return [];
		const rows = await deleteGenerationRows(transaction, selected);
		// Throwing rolls the transaction back: nothing is deleted.
		options.check?.(rows);
		await options.record?.(transaction, rows);
		await deps.onDeleted?.(transaction, rows, true);
		// The queue moves too when a queued one goes: the positions behind it are one less.
		await notifyGenerationsChanged(transaction, [...rows.map((row) => row.id), QUEUE_MOVED_KEY]);
		return rows;
	});
	await removeLeftovers(deps, deleted);
	return deleted;
}

/**
 * Deletes generations for good: one, several, the administrator's moderation, Delete forever
 * (`inTrash`: only among the Trash's) and a deleted account's (`"all"`: every generation of the
 * viewer's own, in the Trash or not).
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
	options: { inTrash?: boolean } = {},
): Promise<number> {
	const wanted = ids === "all" ? undefined : parseGenerationIds(ids);
	const selection: GenerationSelection = wanted
		? {
				ids: wanted,
				userId: viewer.isAdmin ? undefined : viewer.id,
				...(options.inTrash ? { inTrash: true } : {}),
			}
		: { allOf: viewer.id };
	const deleted = await deleteRowsForGood(deps, selection, {
		check: (rows) => {
			if (wanted && rows.length !== wanted.length) throw new AppError("NOT_FOUND");
		},
		record: (transaction, rows) =>
			insertDeletionEntries(transaction, viewer, othersOf(viewer, rows)),
	});
	return deleted.length;
}

/**
 * Moves generations to the Trash (decision 031): one, several, or the administrator's moderation
 * (to the owner's Trash). All or none, as deleteGenerations: an id the viewer may not delete, or
 * one already in the Trash, is NOT_FOUND and nothing moves. A queued or running one is failed
 * first ("Request was cancelled"), its run losing its claim and its provider's job cancelled
 * after the commit: nothing completes into the Trash. Its row, favourite, family links and boards
 * stay until it is restored or purged.
 */
export async function moveToTrash(
	deps: DeletionDeps,
	viewer: Viewer,
	ids: readonly string[],
): Promise<number> {
	const wanted = parseGenerationIds(ids);
	const { moved, cancelled } = await deps.database.db.transaction().execute(async (transaction) => {
		const moved = await trashGenerationRows(transaction, {
			ids: wanted,
			userId: viewer.isAdmin ? undefined : viewer.id,
			deletedBy: viewer.id,
		});
		if (moved.length !== wanted.length) throw new AppError("NOT_FOUND");
		const cancelled = await cancelGenerations(
			transaction,
			moved.filter((row) => ACTIVE_GENERATION_STATUSES.includes(row.status)).map((row) => row.id),
			GENERATION_MESSAGES.cancelled,
		);
		await insertDeletionEntries(transaction, viewer, othersOf(viewer, moved));
		await deps.onDeleted?.(transaction, moved, false);
		await notifyGenerationsChanged(transaction, [...moved.map((row) => row.id), QUEUE_MOVED_KEY]);
		return { moved, cancelled };
	});
	const wasActive = new Set(cancelled.map((row) => row.id));
	for (const row of moved) {
		if (wasActive.has(row.id)) await cancelProviderJob(deps, row).catch(() => {});
	}
	return moved.length;
}

/**
 * What DELETE /api/generations/:id and the bulk delete do: move to the Trash, or delete for good
 * when asked (`permanent`) or when there is no Trash (TRASH_DAYS=0). Answers whether it was for good.
 */
export async function discardGenerations(
	deps: DeletionDeps,
	viewer: Viewer,
	ids: readonly string[],
	options: { permanent: boolean },
): Promise<{ deleted: number; permanent: boolean }> {
	if (options.permanent || trashDaysOf(deps) === 0) {
		return { deleted: await deleteGenerations(deps, viewer, ids), permanent: true };
	}
	return { deleted: await moveToTrash(deps, viewer, ids), permanent: false };
}

/** Deletes one generation, like `deleteGenerations`. */
export async function deleteGeneration(
	deps: DeletionDeps,
	viewer: Viewer,
	id: string,
): Promise<void> {
	await deleteGenerations(deps, viewer, [id]);
}
