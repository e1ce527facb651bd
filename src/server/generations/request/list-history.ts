import type { AspectRatio } from "../../../shared/generations/aspect-ratios";
import type { GenerationPage } from "../../../shared/generations/generations";
import { startOfDateIn } from "../../../shared/history/date-groups";
import { serverOnlyAdminFiltersPerson } from "../../../shared/i18n/messages";
import { findViewableBoard } from "../../boards/board-access";
import { historyFiltersOf, narrowFilters } from "../../boards/board-filters";
import { decodeCursor, toCursorPage } from "../../db/cursor-page";
import { AppError } from "../../errors/app-error";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { findUserIdByEmail } from "../generation-repository";
import { countHistory, type HistoryFilters, selectHistoryPage } from "../history-repository";
import { findQueuePositions } from "../run/queue-order";
import { presentGeneration } from "./generation-presenter";

type HistoryQuery = {
	cursor?: string | undefined;
	limit: number;
	todayStart: Date;
	search?: string | undefined;
	aspectRatio?: AspectRatio | undefined;
	modelId?: string | undefined;
	isFavoritesOnly?: boolean;
	styleId?: string | undefined;
	/** A batch's generations (the viewer's own; the administrator's, anyone's). */
	batchId?: string | undefined;
	/** The administrator's filter by person; anyone else passing it is refused. */
	ownerEmail?: string | undefined;
	/** A board's page: only what is on it (a smart board: what its search matches). */
	boardId?: string | undefined;
	/** Days (`YYYY-MM-DD`, both included) in `timeZone`. */
	from?: string | undefined;
	to?: string | undefined;
	/** The zone of the days of `from`, `to` and a smart board's range; UTC when not given. */
	timeZone?: string | undefined;
};

const EMPTY_PAGE: GenerationPage = { items: [], nextCursor: null, total: 0, today: 0 };

/**
 * The viewer's history (the admin's: everyone's, or one person's), newest first, one cursor page
 * at a time; the counts are of what the search and filters match. A cursor continues the query
 * that gave it.
 */
export async function listHistory(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	query: HistoryQuery,
): Promise<GenerationPage> {
	const db = deps.database.db;
	let userId: string | undefined = viewer.isAdmin ? undefined : viewer.id;
	if (query.ownerEmail !== undefined) {
		if (!viewer.isAdmin) {
			throw new AppError("VALIDATION_ERROR", serverOnlyAdminFiltersPerson);
		}
		userId = await findUserIdByEmail(db, query.ownerEmail);
		if (userId === undefined) return EMPTY_PAGE;
	}
	const timeZone = query.timeZone ?? "UTC";
	let filters: HistoryFilters | undefined = {
		userId,
		search: query.search || undefined,
		aspectRatio: query.aspectRatio,
		modelId: query.modelId,
		isFavoritesOnly: query.isFavoritesOnly ?? false,
		from: query.from === undefined ? undefined : startOfDateIn(query.from, timeZone),
		to: query.to === undefined ? undefined : startOfDateIn(query.to, timeZone, true),
		styleId: query.styleId,
		batchId: query.batchId,
	};
	if (query.boardId !== undefined) {
		// Whoever may see the board sees what is on it: its owner's generations, the filters inside.
		const board = await findViewableBoard(db, viewer, query.boardId);
		filters = narrowFilters(historyFiltersOf(board, timeZone), filters);
		if (filters === undefined) return EMPTY_PAGE;
	}
	const cursor = decodeCursor(query.cursor);
	const [rows, counts] = await Promise.all([
		selectHistoryPage(db, {
			filters,
			cursor,
			limit: query.limit + 1,
			isOwnerShown: viewer.isAdmin,
		}),
		countHistory(db, { filters, todayStart: query.todayStart }),
	]);
	// One look-up of the queue for the page's queued rows, none when the page has none.
	const positions = await findQueuePositions(db, rows);
	return {
		...toCursorPage(rows, query.limit, (row) =>
			presentGeneration(row, positions.get(row.id) ?? null),
		),
		total: counts.total,
		today: counts.today,
	};
}
