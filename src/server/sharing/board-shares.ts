import type { Kysely, Transaction } from "kysely";
import { findViewableBoard } from "../boards/board-access";
import { historyFiltersOf } from "../boards/board-filters";
import { type BoardWithOwner, findBoard } from "../boards/boards-repository";
import { cursorOf, decodeCursor } from "../db/cursor-page";
import type { DatabaseSchema } from "../db/schema";
import { AppError } from "../errors/app-error";
import type { PresentableGeneration } from "../generations/generation-repository";
import { selectHistoryPage } from "../generations/history-repository";
import type { Viewer } from "../person/viewer";

// A board's link (decision 036): the board as its owner's history shows it now, newest first, a
// page at a time; what is taken off it, moved to the Trash or no longer matched by a smart
// board's search is no longer shown, nor served.

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** Generations a board's shared page shows at a time. */
export const SHARED_BOARD_PAGE_SIZE = 24;

/**
 * A smart board's days are counted in UTC on its link: a visitor's calendar is not the owner's,
 * and a link shows the same page to everyone.
 */
const SHARED_BOARD_TIME_ZONE = "UTC";

/**
 * The board a person may share: only their own. A board shared with them to look at is theirs to
 * see, not to share (403); one they cannot see, or another's seen as the administrator, does not
 * exist for sharing (404), as another person's generation.
 */
export async function findShareableBoard(
	db: Executor,
	viewer: Viewer,
	boardId: string,
): Promise<BoardWithOwner> {
	const board = await findViewableBoard(db, viewer, boardId);
	if (board.user_id === viewer.id) return board;
	if (board.visibility !== "shared") throw new AppError("NOT_FOUND");
	throw new AppError("BOARD_READ_ONLY", "Only its owner can share this board.");
}

/** The board a link shows, read through the boards repository; undefined once it is deleted. */
export async function findSharedBoard(
	db: Executor,
	share: { board_id: string | null; user_id: string },
): Promise<BoardWithOwner | undefined> {
	if (share.board_id === null) return undefined;
	const board = await findBoard(db, share.board_id);
	// A board never changes hands; this holds the door should that ever change.
	return board?.user_id === share.user_id ? board : undefined;
}

/** Where a page of a board's link starts: after an older page's cursor, or before a newer one's. */
export type BoardPagePosition = { after?: string | undefined; before?: string | undefined };

export type SharedBoardPage = {
	generations: PresentableGeneration[];
	olderCursor: string | null;
	newerCursor: string | null;
};

/**
 * One page of a shared board, newest first, keyed as the history pages are: `after` continues
 * to older generations, `before` goes back to newer ones (and lands on the first page once no
 * more are newer, so it matches the page the link opens on).
 */
export async function readSharedBoardPage(
	db: Executor,
	board: BoardWithOwner,
	position: BoardPagePosition,
): Promise<SharedBoardPage> {
	const filters = historyFiltersOf(board, SHARED_BOARD_TIME_ZONE);
	const limit = SHARED_BOARD_PAGE_SIZE;
	const before = decodeCursor(position.before);
	if (before) {
		const rows = await selectHistoryPage(db, {
			filters,
			cursor: before,
			limit: limit + 1,
			isOwnerShown: false,
			isNewerPage: true,
		});
		if (rows.length > limit) {
			const generations = rows.slice(0, limit).reverse();
			const [first, last] = [generations[0], generations.at(-1)];
			return {
				generations,
				newerCursor: first ? cursorOf(first) : null,
				olderCursor: last ? cursorOf(last) : null,
			};
		}
		return readSharedBoardPage(db, board, {});
	}
	const after = decodeCursor(position.after);
	const rows = await selectHistoryPage(db, {
		filters,
		cursor: after,
		limit: limit + 1,
		isOwnerShown: false,
	});
	const generations = rows.slice(0, limit);
	const [first, last] = [generations[0], generations.at(-1)];
	return {
		generations,
		olderCursor: rows.length > limit && last ? cursorOf(last) : null,
		newerCursor: after && first ? cursorOf(first) : null,
	};
}

/** A generation of the board as its link shows it now; undefined when it is not shown any more. */
export async function findSharedBoardGeneration(
	db: Executor,
	board: BoardWithOwner,
	generationId: string,
): Promise<PresentableGeneration | undefined> {
	const [row] = await selectHistoryPage(db, {
		filters: { ...historyFiltersOf(board, SHARED_BOARD_TIME_ZONE), generationId },
		cursor: undefined,
		limit: 1,
		isOwnerShown: false,
	});
	return row;
}
