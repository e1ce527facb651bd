import { type SqlBool, sql } from "kysely";
import type { PageCursor } from "../db/cursor-page";
import type { GenerationRow } from "../db/schema";
import { type Executor, FAMILY_FACTS, type PresentableGeneration } from "./generation-repository";

// The Trash's own reads and writes (decision 031): the only queries that see a generation in the
// Trash. Everything else reads through isNotInTrash (generation-repository.ts).

type Owned = GenerationRow & { owner_email: string };

/** Which generations: some ids, of one person (undefined: anyone's, the administrator's reach). */
type IdSelection = { ids: readonly string[]; userId: string | undefined };

function ownerEmail() {
	return sql<string>`(select "user".email from "user" where "user".id = generations.user_id)`.as(
		"owner_email",
	);
}

/** Moves these generations (not already there) to the Trash; returns those it moved. */
export async function trashGenerationRows(
	db: Executor,
	selection: IdSelection & { deletedBy: string },
): Promise<Owned[]> {
	let query = db
		.updateTable("generations")
		.set({ deleted_at: sql`now()`, deleted_by: selection.deletedBy })
		.where("id", "in", selection.ids)
		.where("deleted_at", "is", null);
	if (selection.userId !== undefined) query = query.where("user_id", "=", selection.userId);
	return query.returningAll().returning(ownerEmail()).execute();
}

/** Takes these generations out of the Trash as they were; returns those it restored. */
export async function restoreGenerationRows(
	db: Executor,
	selection: IdSelection,
): Promise<Owned[]> {
	let query = db
		.updateTable("generations")
		.set({ deleted_at: null, deleted_by: null })
		.where("id", "in", selection.ids)
		.where("deleted_at", "is not", null);
	if (selection.userId !== undefined) query = query.where("user_id", "=", selection.userId);
	return query.returningAll().returning(ownerEmail()).execute();
}

/** The keyset predicate of the Trash's pages: newest deletion first, on (deleted_at, id). */
function isAfterTrashCursor(cursor: PageCursor) {
	return sql<SqlBool>`(generations.deleted_at, generations.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}

/** One page of a person's Trash (everyone's: the administrator's view), newest deletion first. */
export async function selectTrashPage(
	db: Executor,
	options: {
		userId: string | undefined;
		cursor: PageCursor | undefined;
		limit: number;
		isOwnerShown: boolean;
	},
): Promise<Array<PresentableGeneration & { deleted_at: Date }>> {
	let query = db
		.selectFrom("generations")
		.selectAll("generations")
		.select(FAMILY_FACTS)
		.where("generations.deleted_at", "is not", null)
		.orderBy("generations.deleted_at", "desc")
		.orderBy("generations.id", "desc")
		.limit(options.limit);
	if (options.userId !== undefined) {
		query = query.where("generations.user_id", "=", options.userId);
	}
	if (options.cursor) query = query.where(isAfterTrashCursor(options.cursor));
	const rows = options.isOwnerShown
		? await query.select(ownerEmail()).execute()
		: await query.execute();
	return rows as Array<PresentableGeneration & { deleted_at: Date }>;
}

/** Up to `limit` ids deleted at or before `cutoff`, oldest deletion first (the purge). */
export async function selectPurgeableIds(
	db: Executor,
	options: { cutoff: Date; limit: number },
): Promise<string[]> {
	const rows = await db
		.selectFrom("generations")
		.select("id")
		.where("deleted_at", "<=", options.cutoff)
		.orderBy("deleted_at", "asc")
		.limit(options.limit)
		.execute();
	return rows.map((row) => row.id);
}
