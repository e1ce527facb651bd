import type { Database } from "../db/database";
import { selectBoardsOfUser, selectMembershipsOfUser } from "./boards-repository";

/**
 * A person's boards as the account export lists them (`boards.json`): each with what is on it,
 * by generation id (each generation's folder in the export is named with its id).
 */
export async function describeBoardsOf(db: Database["db"], userId: string) {
	const [boards, memberships] = await Promise.all([
		selectBoardsOfUser(db, userId),
		selectMembershipsOfUser(db, userId),
	]);
	return boards.map((board) => ({
		id: board.id,
		name: board.name,
		kind: board.kind,
		visibility: board.visibility,
		query: board.query,
		createdAt: board.created_at.toISOString(),
		updatedAt: board.updated_at.toISOString(),
		generations: memberships.get(board.id) ?? [],
	}));
}
