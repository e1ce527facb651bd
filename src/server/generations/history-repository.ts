import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { AspectRatio } from "../../shared/generations/aspect-ratios";
import { isAfterCursor, isBeforeCursor, type PageCursor } from "../db/cursor-page";
import type { DatabaseSchema, StoredImage } from "../db/schema";

import {
	type Executor,
	FAMILY_FACTS,
	isNotInTrash,
	type PresentableGeneration,
} from "./generation-repository";

// The history's pages and counts: searched and filtered on generation_search, a narrow copy kept
// by triggers, which holds no generation in the Trash; read on generations, the Trash is left out
// by isNotInTrash.

/** Which part of the history a page shows; every filter is optional and they combine. */
export type HistoryFilters = {
	/** One person's history; undefined is everyone's (the administrator's view). */
	userId: string | undefined;
	/** Matched anywhere in the prompt, any case (trimmed, non-empty). */
	search?: string | undefined;
	aspectRatio?: AspectRatio | undefined;
	/** A model's id: the generations made with it, whether or not it is still offered. */
	modelId?: string | undefined;
	isFavoritesOnly?: boolean;
	/** Only the generations on this board (boards/, decision 032). */
	boardId?: string | undefined;
	/** A smart board's own search, matched as well as `search`. */
	savedSearch?: string | undefined;
	/** Made at or after this instant. */
	from?: Date | undefined;
	/** Made before this instant. */
	to?: Date | undefined;
	/** A style's id: the generations made with it, whatever it is called now. */
	styleId?: string | undefined;
	/** Only this generation: whether a board's link shows it now (sharing/). */
	generationId?: string | undefined;
	/** A batch's id: the generations one submission started together. */
	batchId?: string | undefined;
};

/** `like` treats `%`, `_` and `\` as wildcards and escape: searched text means only itself. */
function escapeLikePattern(text: string): string {
	return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The search and filters, on `generation_search` (the person, when given, too). */
function matchesFilters(filters: HistoryFilters) {
	return (eb: ExpressionBuilder<DatabaseSchema, "generation_search">) => {
		const conditions: Expression<SqlBool>[] = [];
		if (filters.userId !== undefined) {
			conditions.push(eb("generation_search.user_id", "=", filters.userId));
		}
		if (filters.aspectRatio !== undefined) {
			conditions.push(eb("generation_search.aspect_ratio", "=", filters.aspectRatio));
		}
		if (filters.modelId !== undefined) {
			conditions.push(eb("generation_search.model_id", "=", filters.modelId));
		}
		// Spelled without a parameter so the planner can match the partial favourites index.
		if (filters.isFavoritesOnly) conditions.push(sql<SqlBool>`generation_search.is_favorite`);
		if (filters.styleId !== undefined) {
			// Few generations have a style: its partial index on generations finds them.
			conditions.push(
				eb(
					"generation_search.id",
					"in",
					eb.selectFrom("generations").select("id").where("style_id", "=", filters.styleId),
				),
			);
		}
		if (filters.batchId !== undefined) {
			// A batch is a handful of rows: its partial index on generations finds them.
			conditions.push(
				eb(
					"generation_search.id",
					"in",
					eb.selectFrom("generations").select("id").where("batch_id", "=", filters.batchId),
				),
			);
		}
		for (const search of [filters.search, filters.savedSearch]) {
			if (!search) continue;
			// prompt_search is the prompt lowercased; its trigram index serves this.
			const pattern = `%${escapeLikePattern(search)}%`;
			conditions.push(sql<SqlBool>`generation_search.prompt_search like lower(${pattern})`);
		}
		if (filters.from !== undefined) {
			conditions.push(eb("generation_search.created_at", ">=", filters.from));
		}
		if (filters.to !== undefined) {
			conditions.push(eb("generation_search.created_at", "<", filters.to));
		}
		if (filters.generationId !== undefined) {
			conditions.push(eb("generation_search.id", "=", filters.generationId));
		}
		return eb.and(conditions);
	};
}

/**
 * A plain board's part of generation_search, driven from its memberships: their index walks the
 * board newest first (the history's keyset), so a page reads its own rows and a count the board's,
 * never the rest of its owner's history.
 */
function selectBoardRows(db: Executor, boardId: string) {
	return db
		.selectFrom("board_generations as member")
		.innerJoin("generation_search", "generation_search.id", "member.generation_id")
		.where("member.board_id", "=", boardId);
}

/** A board's rows past the cursor along its memberships: older ones, or newer ones for a Newer page. */
function isMemberBeyondCursor(cursor: PageCursor, isNewerPage: boolean | undefined) {
	return isNewerPage
		? sql<SqlBool>`(member.generation_created_at, member.generation_id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
		: sql<SqlBool>`(member.generation_created_at, member.generation_id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}

function isNarrowed(filters: HistoryFilters): boolean {
	return Boolean(
		filters.search ||
			filters.aspectRatio ||
			filters.modelId ||
			filters.isFavoritesOnly ||
			filters.boardId ||
			filters.savedSearch ||
			filters.from ||
			filters.to ||
			filters.styleId ||
			filters.generationId ||
			filters.batchId,
	);
}

/**
 * One page of history, newest first, keyed on (created_at, id) so new rows never shift a page.
 * Searched or filtered, the page is found in `generation_search` and its 25 rows read by id.
 */
export async function selectHistoryPage(
	db: Executor,
	options: {
		filters: HistoryFilters;
		cursor: PageCursor | undefined;
		limit: number;
		/** Add each row's owner e-mail (the administrator's view). */
		isOwnerShown: boolean;
		/**
		 * The rows newer than the cursor instead (a shared board's Newer page), oldest first: the
		 * caller reverses them.
		 */
		isNewerPage?: boolean;
	},
): Promise<PresentableGeneration[]> {
	const { filters, cursor, limit } = options;
	if (filters.boardId !== undefined) {
		const order = options.isNewerPage ? "asc" : "desc";
		let query = selectBoardRows(db, filters.boardId)
			.innerJoin("generations", "generations.id", "generation_search.id")
			.selectAll("generations")
			.select(FAMILY_FACTS)
			.where(matchesFilters(filters))
			.where(isNotInTrash)
			.orderBy("member.generation_created_at", order)
			.orderBy("member.generation_id", order)
			.limit(limit);
		if (cursor) query = query.where(isMemberBeyondCursor(cursor, options.isNewerPage));
		if (!options.isOwnerShown) return query.execute();
		return query
			.innerJoin("user", "user.id", "generations.user_id")
			.select("user.email as owner_email")
			.execute();
	}
	if (isNarrowed(filters)) {
		const order = options.isNewerPage ? "asc" : "desc";
		let query = db
			.selectFrom("generation_search")
			.innerJoin("generations", "generations.id", "generation_search.id")
			.selectAll("generations")
			.select(FAMILY_FACTS)
			.where(matchesFilters(filters))
			.where(isNotInTrash)
			.orderBy("generation_search.created_at", order)
			.orderBy("generation_search.id", order)
			.limit(limit);
		if (cursor) {
			const isBeyond = options.isNewerPage ? isBeforeCursor : isAfterCursor;
			query = query.where(isBeyond("generation_search", cursor));
		}
		if (!options.isOwnerShown) return query.execute();
		return query
			.innerJoin("user", "user.id", "generations.user_id")
			.select("user.email as owner_email")
			.execute();
	}
	const order = options.isNewerPage ? "asc" : "desc";
	let query = db
		.selectFrom("generations")
		.selectAll("generations")
		.select(FAMILY_FACTS)
		.where(isNotInTrash)
		.orderBy("generations.created_at", order)
		.orderBy("generations.id", order)
		.limit(limit);
	if (filters.userId !== undefined) query = query.where("generations.user_id", "=", filters.userId);
	if (cursor) {
		const isBeyond = options.isNewerPage ? isBeforeCursor : isAfterCursor;
		query = query.where(isBeyond("generations", cursor));
	}
	if (!options.isOwnerShown) return query.execute();
	return query
		.innerJoin("user", "user.id", "generations.user_id")
		.select("user.email as owner_email")
		.execute();
}

/**
 * The cover of what the filters match (a smart board's on the boards list): the first image of the
 * newest favourite that has one, else of the newest generation that has one; null when none has.
 * Two probes of one row each, never the rows' JSON or family facts.
 */
export async function selectCoverImage(
	db: Executor,
	filters: HistoryFilters,
): Promise<StoredImage | null> {
	const newestImage = (isFavoritesOnly: boolean) =>
		(filters.boardId === undefined
			? db.selectFrom("generation_search")
			: selectBoardRows(db, filters.boardId)
		)
			.innerJoin("generations", "generations.id", "generation_search.id")
			.select(sql<StoredImage>`generations.images -> 0`.as("image"))
			.where(
				matchesFilters({ ...filters, isFavoritesOnly: isFavoritesOnly || filters.isFavoritesOnly }),
			)
			.where(sql<SqlBool>`jsonb_array_length(generations.images) > 0`)
			.orderBy("generation_search.created_at", "desc")
			.orderBy("generation_search.id", "desc")
			.limit(1);
	const row = await db
		.selectNoFrom((eb) => eb.fn.coalesce(newestImage(true), newestImage(false)).as("image"))
		.executeTakeFirst();
	return row?.image ?? null;
}

/**
 * The total and today's count of what the filters match, for the summary line. Unfiltered, the
 * total comes from the counter a trigger keeps and today's rows are a short index range; so for a
 * whole board, whose count its row keeps (migration 0040); searched or filtered, both come from
 * one pass over the matching rows of `generation_search`.
 */
export async function countHistory(
	db: Executor,
	options: { filters: HistoryFilters; todayStart: Date },
): Promise<{ total: number; today: number }> {
	const { filters, todayStart } = options;
	const { boardId } = filters;
	if (boardId !== undefined && !isNarrowed({ ...filters, boardId: undefined })) {
		const today = selectBoardRows(db, boardId)
			.select(sql<string>`count(*)`.as("today"))
			.where("member.generation_created_at", ">=", todayStart);
		const row = await db
			.selectFrom("boards")
			.select(["boards.generation_count as total", today.as("today")])
			.where("boards.id", "=", boardId)
			.executeTakeFirst();
		return { total: row?.total ?? 0, today: Number(row?.today ?? 0) };
	}
	if (isNarrowed(filters)) {
		const row = await (filters.boardId === undefined
			? db.selectFrom("generation_search")
			: selectBoardRows(db, filters.boardId)
		)
			.select([
				sql<string>`count(*)`.as("total"),
				sql<string>`count(*) filter (where generation_search.created_at >= ${todayStart})`.as(
					"today",
				),
			])
			.where(matchesFilters(filters))
			.executeTakeFirstOrThrow();
		return { total: Number(row.total), today: Number(row.today) };
	}
	let totalQuery = db
		.selectFrom("generation_counts")
		.select(sql<string>`coalesce(sum(total), 0)`.as("total"));
	let todayQuery = db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("today"))
		.where("created_at", ">=", todayStart)
		.where(isNotInTrash);
	if (filters.userId !== undefined) {
		totalQuery = totalQuery.where("user_id", "=", filters.userId);
		todayQuery = todayQuery.where("user_id", "=", filters.userId);
	}
	const [total, today] = await Promise.all([
		totalQuery.executeTakeFirstOrThrow(),
		todayQuery.executeTakeFirstOrThrow(),
	]);
	return { total: Number(total.total), today: Number(today.today) };
}
