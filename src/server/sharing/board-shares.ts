import type { Kysely, Transaction } from "kysely";
import { serverShareBoardOwnerOnly } from "../../shared/i18n/messages";
import { findViewableBoard } from "../boards/board-access";
import { historyFiltersOf } from "../boards/board-filters";
import { type BoardWithOwner, findBoard } from "../boards/boards-repository";
import type { PromptBlocklist } from "../config/prompt-blocklist";
import { cursorOf, decodeCursor, type PageCursor } from "../db/cursor-page";
import type { DatabaseSchema } from "../db/schema";
import { AppError } from "../errors/app-error";
import type { PresentableGeneration } from "../generations/generation-repository";
import { type HistoryFilters, selectHistoryPage } from "../generations/history-repository";
import type { Viewer } from "../person/viewer";

// A board's link (decision 036): the board as its owner's history shows it now, newest first, a
// page at a time; what is taken off it, moved to the Trash, no longer matched by a smart board's
// search, or whose prompt the blocklist refuses, is not shown, nor served.

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
	throw new AppError("BOARD_READ_ONLY", serverShareBoardOwnerOnly);
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
 * Whether a board's link may show a generation: its prompt, and what a style made of it, pass the
 * blocklist as it is now. A generation passed it when it was made, but the list may have grown
 * since, and a board's link is never checked again when things are put on the board.
 */
function isShareable(
	blocklist: PromptBlocklist | undefined,
	generation: PresentableGeneration,
): boolean {
	if (!blocklist) return true;
	return ![generation.prompt, generation.styled_prompt ?? ""].some((prompt) =>
		blocklist.isBlocked(prompt),
	);
}

/**
 * Up to `limit` of the board's generations its link may show, from `cursor` in the query's
 * direction: the history's pages, read on past the refused ones until enough are kept.
 */
async function selectShown(
	db: Executor,
	query: { filters: HistoryFilters; cursor: PageCursor | undefined; isNewerPage?: boolean },
	limit: number,
	blocklist: PromptBlocklist | undefined,
): Promise<PresentableGeneration[]> {
	const shown: PresentableGeneration[] = [];
	let cursor = query.cursor;
	while (shown.length < limit) {
		const rows = await selectHistoryPage(db, {
			filters: query.filters,
			cursor,
			limit,
			isOwnerShown: false,
			...(query.isNewerPage ? { isNewerPage: true } : {}),
		});
		shown.push(...rows.filter((row) => isShareable(blocklist, row)));
		const last = rows.at(-1);
		if (rows.length < limit || !last) break;
		cursor = { createdAt: last.created_at, id: last.id };
	}
	return shown.slice(0, limit);
}

/**
 * One page of a shared board, newest first, keyed as the history pages are: `after` continues
 * to older generations, `before` goes back to newer ones (and lands on the first page once no
 * more are newer, so it matches the page the link opens on). A generation whose prompt the
 * blocklist refuses now is not on it.
 */
export async function readSharedBoardPage(
	db: Executor,
	board: BoardWithOwner,
	position: BoardPagePosition,
	blocklist: PromptBlocklist | undefined,
): Promise<SharedBoardPage> {
	const filters = historyFiltersOf(board, SHARED_BOARD_TIME_ZONE);
	const limit = SHARED_BOARD_PAGE_SIZE;
	const before = decodeCursor(position.before);
	if (before) {
		const rows = await selectShown(
			db,
			{ filters, cursor: before, isNewerPage: true },
			limit + 1,
			blocklist,
		);
		if (rows.length > limit) {
			const generations = rows.slice(0, limit).reverse();
			const [first, last] = [generations[0], generations.at(-1)];
			return {
				generations,
				newerCursor: first ? cursorOf(first) : null,
				olderCursor: last ? cursorOf(last) : null,
			};
		}
		return readSharedBoardPage(db, board, {}, blocklist);
	}
	const after = decodeCursor(position.after);
	const rows = await selectShown(db, { filters, cursor: after }, limit + 1, blocklist);
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
	blocklist: PromptBlocklist | undefined,
): Promise<PresentableGeneration | undefined> {
	const [row] = await selectHistoryPage(db, {
		filters: { ...historyFiltersOf(board, SHARED_BOARD_TIME_ZONE), generationId },
		cursor: undefined,
		limit: 1,
		isOwnerShown: false,
	});
	return row && isShareable(blocklist, row) ? row : undefined;
}
