import { sql, type Transaction } from "kysely";
import type { TrashItem, TrashPage } from "../../../shared/history/trash";
import { insertDeletionEntries } from "../../audit/audit-log-repository";
import { decodeCursor, toCursorPage } from "../../db/cursor-page";
import type { DatabaseSchema } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import type { Logger } from "../../logging/logger";
import type { Viewer } from "../../person/viewer";
import { notifyGenerationsChanged } from "../generation-events";
import type { PresentableGeneration } from "../generation-repository";
import {
	type DeletionDeps,
	deleteGenerations,
	deleteRowsForGood,
	othersOf,
	parseGenerationIds,
	trashDaysOf,
} from "../request/delete-generations";
import { presentGeneration } from "../request/generation-presenter";
import { restoreGenerationRows, selectPurgeableIds, selectTrashPage } from "../trash-repository";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A generation in the Trash as `GET /api/trash` lists it: when deleted, when purged. */
function presentTrashItem(
	row: PresentableGeneration & { deleted_at: Date },
	trashDays: number,
): TrashItem {
	return {
		...presentGeneration(row, null),
		deletedAt: row.deleted_at.toISOString(),
		purgeAt: new Date(row.deleted_at.getTime() + trashDays * DAY_MS).toISOString(),
	};
}

/**
 * `GET /api/trash`: the viewer's Trash (the administrator's: everyone's, each with its owner's
 * e-mail, so they can restore what they deleted), newest deletion first, keyset paged.
 */
export async function listTrash(
	deps: DeletionDeps,
	viewer: Viewer,
	query: { cursor?: string | undefined; limit: number },
): Promise<TrashPage> {
	const rows = await selectTrashPage(deps.database.db, {
		userId: viewer.isAdmin ? undefined : viewer.id,
		cursor: decodeCursor(query.cursor),
		limit: query.limit + 1,
		isOwnerShown: viewer.isAdmin,
	});
	const trashDays = trashDaysOf(deps);
	// The page's cursor is keyed by the deletion's time, which the Trash is ordered by.
	const keyed = rows.map((row) => ({ row, created_at: row.deleted_at, id: row.id }));
	return toCursorPage(keyed, query.limit, ({ row }) => presentTrashItem(row, trashDays));
}

/**
 * `POST /api/trash/restore`: puts generations back as they were, with the same ids, favourites,
 * family links and boards. All or none: an id not in the viewer's Trash (the administrator: any
 * Trash) is NOT_FOUND. The administrator's restores of others' generations are in the audit log.
 */
export async function restoreFromTrash(
	deps: DeletionDeps,
	viewer: Viewer,
	ids: readonly string[],
): Promise<number> {
	const wanted = parseGenerationIds(ids);
	const restored = await deps.database.db.transaction().execute(async (transaction) => {
		const rows = await restoreGenerationRows(transaction, {
			ids: wanted,
			userId: viewer.isAdmin ? undefined : viewer.id,
		});
		if (rows.length !== wanted.length) throw new AppError("NOT_FOUND");
		await insertDeletionEntries(transaction, viewer, othersOf(viewer, rows), "restore");
		await notifyGenerationsChanged(
			transaction,
			rows.map((row) => row.id),
		);
		return rows;
	});
	return restored.length;
}

/** `POST /api/trash/delete`: Delete forever, for ids in the Trash only. */
export function deleteFromTrash(
	deps: DeletionDeps,
	viewer: Viewer,
	ids: readonly string[],
): Promise<number> {
	return deleteGenerations(deps, viewer, ids, { inTrash: true });
}

/** `POST /api/trash/empty`: everything in the viewer's own Trash, for good. */
export async function emptyTrash(deps: DeletionDeps, viewer: Viewer): Promise<number> {
	const rows = await deleteRowsForGood(deps, { trashOf: viewer.id });
	return rows.length;
}

/** How many generations one purge transaction removes; the purge goes on until none is left. */
const PURGE_BATCH = 200;
/** The purge's advisory lock: one process purges at a time. */
const PURGE_LOCK = "atelier:trash-purge";

/**
 * Deletes for good everything that has been in the Trash for TRASH_DAYS (as of `now`), through the
 * one deletion (rows, then files). Safe to run again and at once in several processes: each batch
 * is taken under an advisory lock that a process skips when another holds it, and only rows still
 * in the Trash past their day go (one restored meanwhile stays). The purge of a generation the
 * administrator sent to someone's Trash is written to the audit log under that administrator.
 */
export async function purgeTrash(deps: DeletionDeps, now = new Date()): Promise<number> {
	const trashDays = trashDaysOf(deps);
	const cutoff = new Date(now.getTime() - trashDays * DAY_MS);
	let purged = 0;
	for (;;) {
		const deleted = await deleteRowsForGood(
			deps,
			async (transaction) => {
				const { rows } = await sql<{
					locked: boolean;
				}>`select pg_try_advisory_xact_lock(hashtext(${PURGE_LOCK})) as locked`.execute(
					transaction,
				);
				// Another process is purging: it goes on until nothing is left.
				if (!rows[0]?.locked) return undefined;
				const ids = await selectPurgeableIds(transaction, { cutoff, limit: PURGE_BATCH });
				if (ids.length === 0) return undefined;
				return { ids, userId: undefined, inTrash: true, deletedBefore: cutoff };
			},
			{ record: recordPurges },
		);
		if (deleted.length === 0) return purged;
		purged += deleted.length;
	}
}

/** The audit log's entries for purged generations that the administrator had deleted. */
async function recordPurges(
	transaction: Transaction<DatabaseSchema>,
	rows: ReadonlyArray<{
		id: string;
		prompt: string;
		user_id: string;
		owner_email: string;
		deleted_by: string | null;
	}>,
): Promise<void> {
	const byOthers = rows.filter((row) => row.deleted_by !== null && row.deleted_by !== row.user_id);
	const actorIds = [...new Set(byOthers.map((row) => row.deleted_by as string))];
	if (actorIds.length === 0) return;
	const actors = await transaction
		.selectFrom("user")
		.select(["id", "email"])
		.where("id", "in", actorIds)
		.execute();
	for (const actor of actors) {
		await insertDeletionEntries(
			transaction,
			actor,
			byOthers
				.filter((row) => row.deleted_by === actor.id)
				.map((row) => ({
					generationId: row.id,
					prompt: row.prompt,
					ownerId: row.user_id,
					ownerEmail: row.owner_email,
				})),
			"purge",
		);
	}
}

/** How often a process purges the Trash: a day's retention needs no finer grain than an hour. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Purges now (as the process starts) and then hourly; returns the stop. Every worker process runs
 * it; the advisory lock makes one of them do the work at a time. Nothing runs with TRASH_DAYS=0,
 * where nothing goes to the Trash.
 */
export function keepTrashPurged(deps: DeletionDeps, logger: Logger): () => void {
	if (trashDaysOf(deps) === 0) return () => {};
	const purge = () => {
		purgeTrash(deps)
			.then((purged) => {
				if (purged > 0) logger.info("purged the Trash", { purged });
			})
			.catch((error) => logger.warn("purging the Trash failed", { error }));
	};
	const first = setTimeout(purge, 0);
	first.unref();
	const interval = setInterval(purge, PURGE_INTERVAL_MS);
	interval.unref();
	return () => {
		clearTimeout(first);
		clearInterval(interval);
	};
}
