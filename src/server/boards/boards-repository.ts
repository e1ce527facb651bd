import { type Kysely, sql, type Transaction } from "kysely";
import type { BoardQuery, BoardVisibility } from "../../shared/history/boards";
import type { BoardRow, DatabaseSchema, StoredImage } from "../db/schema";
import { isNotInTrash, notInTrashSql } from "../generations/generation-repository";

// Boards and what is on them (decision 032). A board holds only its owner's generations: every
// write of a membership checks it, so reading a board's generations never needs to.

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A board with its owner's e-mail, as every answer about it names them. */
export type BoardWithOwner = BoardRow & { owner_email: string };

function selectBoardsWithOwner(db: Executor) {
	return db
		.selectFrom("boards")
		.innerJoin("user", "user.id", "boards.user_id")
		.selectAll("boards")
		.select("user.email as owner_email");
}

export async function findBoard(db: Executor, id: string): Promise<BoardWithOwner | undefined> {
	return selectBoardsWithOwner(db).where("boards.id", "=", id).executeTakeFirst();
}

/** The person's own boards and those others share, own first, each newest first. */
export async function selectVisibleBoards(db: Executor, userId: string): Promise<BoardWithOwner[]> {
	return selectBoardsWithOwner(db)
		.where((eb) =>
			eb.or([eb("boards.user_id", "=", userId), eb("boards.visibility", "=", "shared")]),
		)
		.orderBy(sql`boards.user_id = ${userId}`, "desc")
		.orderBy("boards.created_at", "desc")
		.orderBy("boards.id", "desc")
		.execute();
}

/** Every board of one person, oldest first (the account export). */
export async function selectBoardsOfUser(db: Executor, userId: string): Promise<BoardRow[]> {
	return db
		.selectFrom("boards")
		.selectAll()
		.where("user_id", "=", userId)
		.orderBy("created_at")
		.orderBy("id")
		.execute();
}

export async function countBoardsOfUser(db: Executor, userId: string): Promise<number> {
	const row = await db
		.selectFrom("boards")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

export async function insertBoard(
	db: Executor,
	row: {
		id: string;
		user_id: string;
		name: string;
		visibility: BoardVisibility;
		query: BoardQuery | null;
	},
): Promise<void> {
	await db
		.insertInto("boards")
		.values({
			...row,
			kind: row.query === null ? "board" : "smart",
			query: row.query === null ? null : JSON.stringify(row.query),
		})
		.execute();
}

export async function updateBoardRow(
	db: Executor,
	id: string,
	changes: { name?: string; visibility?: BoardVisibility; query?: BoardQuery },
): Promise<void> {
	await db
		.updateTable("boards")
		.set({
			...(changes.name === undefined ? {} : { name: changes.name }),
			...(changes.visibility === undefined ? {} : { visibility: changes.visibility }),
			...(changes.query === undefined ? {} : { query: JSON.stringify(changes.query) }),
			updated_at: new Date(),
		})
		.where("id", "=", id)
		.execute();
}

/** Marks a board changed now: what is on it changed. */
export async function touchBoard(db: Executor, id: string): Promise<void> {
	await db.updateTable("boards").set({ updated_at: new Date() }).where("id", "=", id).execute();
}

export async function deleteBoardRow(db: Executor, id: string): Promise<void> {
	await db.deleteFrom("boards").where("id", "=", id).execute();
}

/** How many of `ids` are generations of `userId`. */
export async function countGenerationsOwnedBy(
	db: Executor,
	userId: string,
	ids: readonly string[],
): Promise<number> {
	const row = await db
		.selectFrom("generations")
		.select(sql<string>`count(*)`.as("count"))
		.where("user_id", "=", userId)
		.where("id", "in", ids)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

/** Puts generations on a board (those already on it stay); how many were added. */
export async function insertMemberships(
	db: Executor,
	boardId: string,
	generationIds: readonly string[],
): Promise<number> {
	if (generationIds.length === 0) return 0;
	const inserted = await db
		.insertInto("board_generations")
		.values(
			generationIds.map((generationId) => ({ board_id: boardId, generation_id: generationId })),
		)
		.onConflict((conflict) => conflict.columns(["board_id", "generation_id"]).doNothing())
		.returning("generation_id")
		.execute();
	return inserted.length;
}

/** Takes generations off a board; how many were on it. */
export async function deleteMemberships(
	db: Executor,
	boardId: string,
	generationIds: readonly string[],
): Promise<number> {
	const deleted = await db
		.deleteFrom("board_generations")
		.where("board_id", "=", boardId)
		.where("generation_id", "in", generationIds)
		.returning("generation_id")
		.execute();
	return deleted.length;
}

/** Of `boardIds`, those that are `userId`'s own boards (not smart ones). */
export async function selectOwnPlainBoardIds(
	db: Executor,
	userId: string,
	boardIds: readonly string[],
): Promise<string[]> {
	if (boardIds.length === 0) return [];
	const rows = await db
		.selectFrom("boards")
		.select("id")
		.where("user_id", "=", userId)
		.where("kind", "=", "board")
		.where("id", "in", boardIds)
		.execute();
	return rows.map((row) => row.id);
}

/** Puts one new generation on each of `boardIds`, marking them changed. */
export async function addGenerationToBoards(
	db: Executor,
	generationId: string,
	boardIds: readonly string[],
): Promise<void> {
	if (boardIds.length === 0) return;
	await db
		.insertInto("board_generations")
		.values(boardIds.map((boardId) => ({ board_id: boardId, generation_id: generationId })))
		.execute();
	await db
		.updateTable("boards")
		.set({ updated_at: new Date() })
		.where("id", "in", boardIds)
		.execute();
}

/** The ids of a board's generations, newest first. */
export async function selectBoardGenerationIds(db: Executor, boardId: string): Promise<string[]> {
	const rows = await db
		.selectFrom("board_generations")
		.innerJoin("generations", "generations.id", "board_generations.generation_id")
		.select("generations.id")
		.where("board_generations.board_id", "=", boardId)
		.where(isNotInTrash)
		.orderBy("generations.created_at", "desc")
		.orderBy("generations.id", "desc")
		.execute();
	return rows.map((row) => row.id);
}

/** Whether a generation is on a board its owner shares: anyone signed in may then see it. */
export async function isOnSharedBoard(db: Executor, generationId: string): Promise<boolean> {
	const row = await db
		.selectFrom("board_generations")
		.innerJoin("boards", "boards.id", "board_generations.board_id")
		.select("boards.id")
		.where("board_generations.generation_id", "=", generationId)
		.where("boards.visibility", "=", "shared")
		.limit(1)
		.executeTakeFirst();
	return row !== undefined;
}

/**
 * The cover of each (not smart) board: its newest favourite's first image, else its newest
 * generation's that has one, out of the Trash. One query for the list; each cover walks its
 * board's memberships newest first and stops at the first that fits (its count is kept on its row).
 */
export async function selectBoardCovers(
	db: Executor,
	boardIds: readonly string[],
): Promise<Map<string, StoredImage>> {
	const covers = new Map<string, StoredImage>();
	if (boardIds.length === 0) return covers;
	const newestImage = (isFavoritesOnly: boolean) => sql`
		(select generations.images -> 0 from board_generations as member
			join generations on generations.id = member.generation_id
			where member.board_id = boards.id and jsonb_array_length(generations.images) > 0
				and ${notInTrashSql("generations")}${isFavoritesOnly ? sql` and generations.is_favorite` : sql``}
			order by member.generation_created_at desc, member.generation_id desc
			limit 1)`;
	const { rows } = await sql<{ id: string; cover: StoredImage | null }>`
		select boards.id, coalesce(${newestImage(true)}, ${newestImage(false)}) as cover
		from boards
		where boards.id in (${sql.join(boardIds)})`.execute(db);
	for (const row of rows) {
		if (row.cover) covers.set(row.id, row.cover);
	}
	return covers;
}

/** Each board of a person with the ids of what is on it (the account export). */
export async function selectMembershipsOfUser(
	db: Executor,
	userId: string,
): Promise<Map<string, string[]>> {
	const rows = await db
		.selectFrom("board_generations")
		.innerJoin("boards", "boards.id", "board_generations.board_id")
		.innerJoin("generations", "generations.id", "board_generations.generation_id")
		.select(["board_generations.board_id", "board_generations.generation_id"])
		.where("boards.user_id", "=", userId)
		.where(isNotInTrash)
		.orderBy("board_generations.added_at")
		.execute();
	const memberships = new Map<string, string[]>();
	for (const row of rows) {
		const ids = memberships.get(row.board_id) ?? [];
		ids.push(row.generation_id);
		memberships.set(row.board_id, ids);
	}
	return memberships;
}
