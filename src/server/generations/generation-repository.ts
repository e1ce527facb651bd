import { type ExpressionBuilder, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import { ACTIVE_GENERATION_STATUSES } from "../../shared/generations/generation-responses";
import type { DatabaseSchema, GenerationRow, NewGenerationRow } from "../db/schema";

export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export type GenerationWithOwner = GenerationRow & { owner_email?: string };

/**
 * The one condition that keeps the Trash out (decision 031): every list, count, search, family and
 * archive of generations reads only rows it holds. A generation in the Trash is seen only by the
 * Trash's own queries (trash-repository.ts), by its owner's get by id and by its image files.
 * generation_search holds no row of the Trash at all (a trigger takes it out and puts it back).
 */
export function isNotInTrash(eb: ExpressionBuilder<DatabaseSchema, "generations">) {
	return eb("generations.deleted_at", "is", null);
}

/** The same condition in SQL written by hand, on a table aliased `alias`. */
export function notInTrashSql(alias: string) {
	return sql<SqlBool>`${sql.ref(`${alias}.deleted_at`)} is null`;
}

/**
 * What a generation's JSON says of its family, read with the row: whether the generation it was
 * made from still exists, and how many (existing) generations were made from it.
 */
export type FamilyFacts = {
	parent_exists: boolean;
	/** The parent is in its owner's Trash (parent_exists is then false). */
	parent_in_trash: boolean;
	children_count: number;
	/** The upload an edit of an uploaded file was made from is still held. */
	parent_upload_kept: boolean;
};

/** A generation as the API shows it: its row, its family, and its owner in the administrator's view. */
export type PresentableGeneration = GenerationWithOwner & FamilyFacts;

// Read in the same query as the rows (never one query per row): a primary-key probe for the
// parent and a count on the children's index (generations_children), per row of the page. Not
// `exists (...)`: the planner turns that into a hashed subplan that reads every generation to
// answer 24 rows (16 ms instead of 0.5 on 10,000 rows); a scalar subquery with a limit is probed.
const PARENT_EXISTS =
	sql<boolean>`coalesce((select true from generations as parent where parent.id = generations.parent_generation_id and ${notInTrashSql("parent")} limit 1), false)`.as(
		"parent_exists",
	);
const PARENT_IN_TRASH =
	sql<boolean>`coalesce((select true from generations as parent where parent.id = generations.parent_generation_id and parent.deleted_at is not null limit 1), false)`.as(
		"parent_in_trash",
	);
const CHILDREN_COUNT =
	sql<number>`(select count(*)::int from generations as child where child.parent_generation_id = generations.id and ${notInTrashSql("child")})`.as(
		"children_count",
	);
const PARENT_UPLOAD_KEPT =
	sql<boolean>`coalesce((select true from uploads where uploads.id = generations.parent_upload_id limit 1), false)`.as(
		"parent_upload_kept",
	);
/** The family facts of each row, selected with it. */
export const FAMILY_FACTS = [
	PARENT_EXISTS,
	PARENT_IN_TRASH,
	CHILDREN_COUNT,
	PARENT_UPLOAD_KEPT,
] as const;

export async function insertGeneration(
	db: Executor,
	row: NewGenerationRow,
): Promise<GenerationRow> {
	return db.insertInto("generations").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findGenerationById(
	db: Executor,
	id: string,
): Promise<GenerationRow | undefined> {
	return db.selectFrom("generations").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A generation by id unless it is in the Trash: what others reach it through (a shared link). */
export async function findGenerationOutOfTrash(
	db: Executor,
	id: string,
): Promise<GenerationRow | undefined> {
	return db
		.selectFrom("generations")
		.selectAll()
		.where("id", "=", id)
		.where(isNotInTrash)
		.executeTakeFirst();
}

/** A generation with its family (and its owner's e-mail when asked), as the API shows one. */
export async function findPresentableGeneration(
	db: Executor,
	id: string,
	options: { isOwnerShown: boolean },
): Promise<PresentableGeneration | undefined> {
	const query = db
		.selectFrom("generations")
		.selectAll("generations")
		.select(FAMILY_FACTS)
		.where("generations.id", "=", id);
	if (!options.isOwnerShown) return query.executeTakeFirst();
	return query
		.innerJoin("user", "user.id", "generations.user_id")
		.select("user.email as owner_email")
		.executeTakeFirst();
}

/**
 * The generations made from one generation's images (from one of them where `imageIndex` is given),
 * newest first, at most `limit`. Read on generations_children, keyed by parent, image and time.
 */
export async function selectChildren(
	db: Executor,
	options: {
		parentId: string;
		/** Only those made from this image (counted from 0); all of the parent's when undefined. */
		imageIndex?: number | undefined;
		userId: string;
		limit: number;
		isOwnerShown: boolean;
	},
): Promise<PresentableGeneration[]> {
	let query = db
		.selectFrom("generations")
		.selectAll("generations")
		.select(FAMILY_FACTS)
		.where("generations.parent_generation_id", "=", options.parentId)
		.where(isNotInTrash);
	if (options.imageIndex !== undefined) {
		query = query.where("generations.parent_image_index", "=", options.imageIndex);
	}
	query = query
		// Only its owner can make one (a reference is always one's own); said again, to be sure.
		.where("generations.user_id", "=", options.userId)
		.orderBy("generations.created_at", "desc")
		.orderBy("generations.id", "desc")
		.limit(options.limit);
	if (!options.isOwnerShown) return query.execute();
	return query
		.innerJoin("user", "user.id", "generations.user_id")
		.select("user.email as owner_email")
		.execute();
}

export async function countActiveGenerations(db: Executor, userId: string): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.where(isNotInTrash)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** The person's queued and running generations, oldest first: what "1 running" counts. */
export async function findActiveGenerations(
	db: Executor,
	userId: string,
): Promise<GenerationRow[]> {
	return db
		.selectFrom("generations")
		.selectAll()
		.where("user_id", "=", userId)
		.where("status", "in", ACTIVE_GENERATION_STATUSES)
		.where(isNotInTrash)
		.orderBy("created_at", "asc")
		.orderBy("id", "asc")
		.execute();
}

export async function countGenerationsSince(
	db: Executor,
	userId: string,
	since: Date,
): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.where("created_at", ">=", since)
		// Quotas do not count the Trash, as they did not count a deleted generation.
		.where(isNotInTrash)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** The account an e-mail belongs to (e-mails are stored lowercased), if any. */
export async function findUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
	const row = await db
		.selectFrom("user")
		.select("id")
		.where("email", "=", email)
		.executeTakeFirst();
	return row?.id;
}

/** The generations among `ids` (of one person, or anyone's), newest first. */
export async function selectGenerationsByIds(
	db: Executor,
	options: { ids: readonly string[]; userId: string | undefined },
): Promise<GenerationRow[]> {
	let query = db
		.selectFrom("generations")
		.selectAll()
		.where("id", "in", options.ids)
		.where(isNotInTrash)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc");
	if (options.userId !== undefined) query = query.where("user_id", "=", options.userId);
	return query.execute();
}

/**
 * Which generations a deletion takes: some ids (of one person, or anyone's; with `inTrash`, only
 * among those in the Trash, and with `deletedBefore` only those deleted before then), all of one
 * person's (in the Trash or not), or everything in one person's Trash.
 */
export type GenerationSelection =
	| {
			ids: readonly string[];
			userId: string | undefined;
			inTrash?: boolean;
			deletedBefore?: Date;
	  }
	| { allOf: string }
	| { trashOf: string };

/** Deletes the selected generations and returns them, with their owners' e-mails. */
export async function deleteGenerationRows(
	db: Executor,
	selection: GenerationSelection,
): Promise<Array<GenerationRow & { owner_email: string }>> {
	let query = db.deleteFrom("generations");
	if ("allOf" in selection) {
		query = query.where("user_id", "=", selection.allOf);
	} else if ("trashOf" in selection) {
		query = query.where("user_id", "=", selection.trashOf).where("deleted_at", "is not", null);
	} else {
		query = query.where("id", "in", selection.ids);
		if (selection.userId !== undefined) query = query.where("user_id", "=", selection.userId);
		if (selection.inTrash) query = query.where("deleted_at", "is not", null);
		if (selection.deletedBefore) {
			query = query.where("deleted_at", "<=", selection.deletedBefore);
		}
	}
	return query
		.returningAll("generations")
		.returning((eb) =>
			eb
				.selectFrom("user")
				.select("user.email")
				.whereRef("user.id", "=", "generations.user_id")
				.$asScalar()
				.$notNull()
				.as("owner_email"),
		)
		.execute();
}

/** Every generation of one person out of the Trash, newest first (the account export). */
export async function selectGenerationsOfUser(
	db: Executor,
	userId: string,
): Promise<GenerationRow[]> {
	return db
		.selectFrom("generations")
		.selectAll()
		.where("user_id", "=", userId)
		.where(isNotInTrash)
		.orderBy("created_at", "desc")
		.orderBy("id", "desc")
		.execute();
}

/** Stars or unstars one person's generation; undefined when it is not theirs (or does not exist). */
export async function updateFavorite(
	db: Executor,
	options: { id: string; userId: string; favorite: boolean },
): Promise<boolean | undefined> {
	const row = await db
		.updateTable("generations")
		.set({ is_favorite: options.favorite })
		.where("id", "=", options.id)
		.where("user_id", "=", options.userId)
		.where(isNotInTrash)
		.returning("is_favorite")
		.executeTakeFirst();
	return row?.is_favorite;
}

/**
 * Of these generations, the ones that still exist, with what names their stored objects: the
 * images of a completed one, the run holding an unfinished one, and the copy of the image one
 * was made from (the stray-object sweep).
 */
export async function selectStoredObjectOwners(
	db: Executor,
	ids: readonly string[],
): Promise<
	Array<
		Pick<
			GenerationRow,
			"id" | "status" | "images" | "lease_owner" | "reference_image" | "region_mask"
		>
	>
> {
	if (ids.length === 0) return [];
	return db
		.selectFrom("generations")
		.select(["id", "status", "images", "lease_owner", "reference_image", "region_mask"])
		.where("id", "in", ids)
		.execute();
}

/** The model of the person's latest generation: the one they chose last. */
export async function findLatestModelId(db: Executor, userId: string): Promise<string | undefined> {
	const row = await db
		.selectFrom("generations")
		.select("model_id")
		.where("user_id", "=", userId)
		.orderBy("created_at", "desc")
		.limit(1)
		.executeTakeFirst();
	return row?.model_id;
}

/**
 * Gives generations made before prices were recorded their model's price in today's catalogue (0
 * for a model without a price, or no longer offered): the best estimate of what they cost. Runs at
 * start; once every row has a price it finds nothing (a partial index keeps that cheap).
 */
export async function fillUnrecordedPrices(
	db: Executor,
	catalogue: { models: readonly { id: string; pricePerImage: number | null }[] },
): Promise<void> {
	for (const model of catalogue.models) {
		if (model.pricePerImage === null) continue;
		await db
			.updateTable("generations")
			.set({ price_per_image: model.pricePerImage })
			.where("price_per_image", "is", null)
			.where("model_id", "=", model.id)
			.execute();
	}
	await db
		.updateTable("generations")
		.set({ price_per_image: 0 })
		.where("price_per_image", "is", null)
		.execute();
}
