import { randomUUID } from "node:crypto";
import { GenerationIdSchema } from "../../shared/generations/generations";
import {
	type Board,
	boardLimitMessage,
	type CreateBoardRequest,
	MAX_BOARDS_PER_PERSON,
	type UpdateBoardRequest,
} from "../../shared/history/boards";
import {
	serverBoardIdsSmart,
	serverBoardQueryOnlySmart,
	serverBoardSmartWithGenerations,
} from "../../shared/i18n/messages";
import type { Database } from "../db/database";
import type { StoredImage } from "../db/schema";
import { AppError } from "../errors/app-error";
import { countHistory, selectCoverImage } from "../generations/history-repository";
import { imageUrl } from "../generations/image-urls";
import type { Viewer } from "../person/viewer";
import { canChangeBoard, findChangeableBoard, findViewableBoard } from "./board-access";
import { historyFiltersOf } from "./board-filters";
import {
	type BoardWithOwner,
	countBoardsOfUser,
	countGenerationsOwnedBy,
	deleteBoardRow,
	deleteMemberships,
	insertBoard,
	insertMemberships,
	selectBoardCovers,
	selectBoardGenerationIds,
	selectVisibleBoards,
	touchBoard,
	updateBoardRow,
} from "./boards-repository";

// The board verbs (decision 032): make, change and delete boards, put generations on them and
// take them off, and list them with their counts and covers.

export type BoardDeps = { database: Database };

function coverUrlOf(image: StoredImage | null): string | null {
	if (!image) return null;
	return imageUrl(image.thumbnailKey);
}

/** A board's count and cover image, as the boards list shows them. */
type BoardFigures = { count: number; cover: StoredImage | null };

function presentBoard(viewer: Viewer, board: BoardWithOwner, figures: BoardFigures): Board {
	return {
		id: board.id,
		name: board.name,
		kind: board.kind,
		visibility: board.visibility,
		query: board.query,
		count: figures.count,
		coverUrl: coverUrlOf(figures.cover),
		owner: { email: board.owner_email },
		canChange: canChangeBoard(viewer, board),
		createdAt: board.created_at.toISOString(),
		updatedAt: board.updated_at.toISOString(),
	};
}

/**
 * A smart board's count and cover, from the history's own queries: what its page shows, counted,
 * and the newest of its favourites, else of it, that has an image.
 */
async function readSmartFigures(
	deps: BoardDeps,
	board: BoardWithOwner,
	timeZone: string,
): Promise<BoardFigures> {
	const db = deps.database.db;
	const filters = historyFiltersOf(board, timeZone);
	const [{ total }, cover] = await Promise.all([
		countHistory(db, { filters, todayStart: new Date() }),
		selectCoverImage(db, filters),
	]);
	return { count: total, cover };
}

/**
 * The boards with their counts and covers: a board's count is kept on its row and the covers of
 * all of them are one query; a smart board's are its search's, counted as its page counts them.
 */
async function presentBoards(
	deps: BoardDeps,
	viewer: Viewer,
	boards: readonly BoardWithOwner[],
	timeZone: string,
): Promise<Board[]> {
	const plain = boards.filter((board) => board.kind === "board").map((board) => board.id);
	const [covers, ...figures] = await Promise.all([
		selectBoardCovers(deps.database.db, plain),
		...boards.map((board) =>
			board.kind === "smart" ? readSmartFigures(deps, board, timeZone) : undefined,
		),
	]);
	return boards.map((board, index) =>
		presentBoard(
			viewer,
			board,
			figures[index] ?? { count: board.generation_count, cover: covers.get(board.id) ?? null },
		),
	);
}

/** `GET /api/boards`: the viewer's own boards, then those others share. */
export async function listBoards(
	deps: BoardDeps,
	viewer: Viewer,
	timeZone = "UTC",
): Promise<Board[]> {
	const boards = await selectVisibleBoards(deps.database.db, viewer.id);
	return presentBoards(deps, viewer, boards, timeZone);
}

/** One board as the list shows it, for whoever may see it. */
export async function getBoard(
	deps: BoardDeps,
	viewer: Viewer,
	id: string,
	timeZone = "UTC",
): Promise<Board> {
	const board = await findViewableBoard(deps.database.db, viewer, id);
	const [presented] = await presentBoards(deps, viewer, [board], timeZone);
	if (!presented) throw new AppError("NOT_FOUND");
	return presented;
}

/** Makes a board of the viewer's (a smart one with a `query`), within MAX_BOARDS_PER_PERSON. */
export async function createBoard(
	deps: BoardDeps,
	viewer: Viewer,
	request: CreateBoardRequest,
): Promise<Board> {
	const id = randomUUID();
	await deps.database.db.transaction().execute(async (transaction) => {
		// One person's boards are counted one request at a time, so two at once cannot pass the cap.
		await transaction
			.selectFrom("user")
			.select("id")
			.where("id", "=", viewer.id)
			.forUpdate()
			.execute();
		if ((await countBoardsOfUser(transaction, viewer.id)) >= MAX_BOARDS_PER_PERSON) {
			throw new AppError("VALIDATION_ERROR", boardLimitMessage);
		}
		await insertBoard(transaction, {
			id,
			user_id: viewer.id,
			name: request.name,
			visibility: request.visibility ?? "private",
			query: request.query ?? null,
		});
	});
	return getBoard(deps, viewer, id);
}

/** Renames a board, changes its visibility or a smart board's search: its owner and the admin. */
export async function updateBoard(
	deps: BoardDeps,
	viewer: Viewer,
	id: string,
	request: UpdateBoardRequest,
): Promise<Board> {
	const board = await findChangeableBoard(deps.database.db, viewer, id);
	if (request.query !== undefined && board.kind !== "smart") {
		throw new AppError("VALIDATION_ERROR", serverBoardQueryOnlySmart);
	}
	await updateBoardRow(deps.database.db, board.id, request);
	return getBoard(deps, viewer, board.id);
}

/**
 * Deletes a board, its owner or the administrator; with `withGenerations`, what is on it is
 * deleted first through `deleteGenerations` (the one deletion of generations, which the routes
 * pass in: the board verbs stand below the generations' request side), all or none.
 */
export async function deleteBoard(
	deps: BoardDeps,
	viewer: Viewer,
	id: string,
	options: {
		withGenerations: boolean;
		deleteGenerations(viewer: Viewer, ids: readonly string[]): Promise<number>;
	},
): Promise<number> {
	const db = deps.database.db;
	const board = await findChangeableBoard(db, viewer, id);
	let deleted = 0;
	if (options.withGenerations) {
		if (board.kind === "smart") {
			throw new AppError("VALIDATION_ERROR", serverBoardSmartWithGenerations);
		}
		const ids = await selectBoardGenerationIds(db, board.id);
		if (ids.length > 0) deleted = await options.deleteGenerations(viewer, ids);
	}
	await deleteBoardRow(db, board.id);
	return deleted;
}

/** Generation ids as sent: one that is not an id of ours is one the owner does not have. */
function parseGenerationIds(ids: readonly string[]): string[] {
	if (!ids.every((id) => GenerationIdSchema.safeParse(id).success)) {
		throw new AppError("NOT_FOUND");
	}
	return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/**
 * Puts generations on a board, all or none: each must be a generation of the board's owner (the
 * administrator changing someone's board puts that person's own on it). How many were added.
 */
export async function addToBoard(
	deps: BoardDeps,
	viewer: Viewer,
	id: string,
	ids: readonly string[],
): Promise<number> {
	const wanted = parseGenerationIds(ids);
	return deps.database.db.transaction().execute(async (transaction) => {
		const board = await findChangeableBoard(transaction, viewer, id);
		if (board.kind === "smart") {
			throw new AppError("VALIDATION_ERROR", serverBoardIdsSmart);
		}
		if ((await countGenerationsOwnedBy(transaction, board.user_id, wanted)) !== wanted.length) {
			throw new AppError("NOT_FOUND");
		}
		const added = await insertMemberships(transaction, board.id, wanted);
		if (added > 0) await touchBoard(transaction, board.id);
		return added;
	});
}

/** Takes generations off a board; how many were on it. */
export async function removeFromBoard(
	deps: BoardDeps,
	viewer: Viewer,
	id: string,
	ids: readonly string[],
): Promise<number> {
	const wanted = parseGenerationIds(ids);
	const db = deps.database.db;
	const board = await findChangeableBoard(db, viewer, id);
	if (board.kind === "smart") {
		throw new AppError("VALIDATION_ERROR", serverBoardIdsSmart);
	}
	const removed = await deleteMemberships(db, board.id, wanted);
	if (removed > 0) await touchBoard(db, board.id);
	return removed;
}
