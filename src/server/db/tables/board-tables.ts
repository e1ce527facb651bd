import type { ColumnType } from "kysely";
import type { BoardKind, BoardQuery, BoardVisibility } from "../../../shared/history/boards";

/** A board (decision 032): a named label, or a saved search (`smart`, its `query`). */
export type BoardsTable = {
	id: string;
	user_id: string;
	name: string;
	kind: BoardKind;
	visibility: ColumnType<BoardVisibility, BoardVisibility | undefined, BoardVisibility>;
	query: ColumnType<BoardQuery | null, string | null, string | null>;
	created_at: ColumnType<Date, Date | undefined, Date>;
	updated_at: ColumnType<Date, Date | undefined, Date>;
	/** How many of its generations are out of the Trash, kept by triggers (a smart board: 0). */
	generation_count: ColumnType<number, never, never>;
};

/** A generation on a board. */
export type BoardGenerationsTable = {
	board_id: string;
	generation_id: string;
	added_at: ColumnType<Date, Date | undefined, never>;
	/** The generation's created_at, written by a trigger: a board's page is read in its order. */
	generation_created_at: ColumnType<Date, never, never>;
};
