import { z } from "zod/mini";
import { AppError } from "../errors/app-error";
import type { Viewer } from "../person/viewer";
import { type BoardWithOwner, findBoard } from "./boards-repository";

const BoardIdSchema = z.uuid();

/**
 * Who may see and change a board (decision 032): its owner and the administrator see and change
 * it; anyone signed in sees a shared one, read-only; to anyone else it does not exist.
 */
export async function findViewableBoard(
	db: Parameters<typeof findBoard>[0],
	viewer: Viewer,
	id: string,
): Promise<BoardWithOwner> {
	if (!BoardIdSchema.safeParse(id).success) throw new AppError("NOT_FOUND");
	const board = await findBoard(db, id.toLowerCase());
	if (!board) throw new AppError("NOT_FOUND");
	if (board.user_id === viewer.id || viewer.isAdmin || board.visibility === "shared") return board;
	throw new AppError("NOT_FOUND");
}

/** Whether the viewer may change the board: its owner, or the administrator. */
export function canChangeBoard(viewer: Viewer, board: Pick<BoardWithOwner, "user_id">): boolean {
	return board.user_id === viewer.id || viewer.isAdmin;
}

/** A board the viewer may change; a shared one of someone else's is BOARD_READ_ONLY. */
export async function findChangeableBoard(
	db: Parameters<typeof findBoard>[0],
	viewer: Viewer,
	id: string,
): Promise<BoardWithOwner> {
	const board = await findViewableBoard(db, viewer, id);
	if (!canChangeBoard(viewer, board)) throw new AppError("BOARD_READ_ONLY");
	return board;
}
