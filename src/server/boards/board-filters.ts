import { startOfDateIn } from "../../shared/history/date-groups";
import type { HistoryFilters } from "../generations/history-repository";
import type { BoardWithOwner } from "./boards-repository";

/**
 * The part of the history a board is (decision 032): a board, its owner's generations on it; a
 * smart board, its owner's generations its saved search matches, its days counted in `timeZone`
 * (whoever looks sees the days of their own calendar).
 */
export function historyFiltersOf(board: BoardWithOwner, timeZone: string): HistoryFilters {
	const query = board.query;
	if (board.kind === "board" || query === null) {
		return { userId: board.user_id, boardId: board.id };
	}
	return {
		userId: board.user_id,
		savedSearch: query.q || undefined,
		aspectRatio: query.aspectRatio,
		modelId: query.model,
		isFavoritesOnly: query.favorites ?? false,
		from: query.from === undefined ? undefined : startOfDateIn(query.from, timeZone),
		to: query.to === undefined ? undefined : startOfDateIn(query.to, timeZone, true),
	};
}

/**
 * A page's own filters inside a board's: both apply. Where they ask for different values of one
 * filter (two ratios, say) nothing can match: undefined.
 */
export function narrowFilters(
	board: HistoryFilters,
	page: Omit<HistoryFilters, "userId">,
): HistoryFilters | undefined {
	const pick = <Value>(boardValue: Value | undefined, pageValue: Value | undefined) =>
		boardValue !== undefined && pageValue !== undefined && boardValue !== pageValue
			? null
			: (boardValue ?? pageValue);
	const aspectRatio = pick(board.aspectRatio, page.aspectRatio);
	const modelId = pick(board.modelId, page.modelId);
	if (aspectRatio === null || modelId === null) return undefined;
	const latest = (a?: Date, b?: Date) => (a && b ? (a > b ? a : b) : (a ?? b));
	const earliest = (a?: Date, b?: Date) => (a && b ? (a < b ? a : b) : (a ?? b));
	return {
		...board,
		search: page.search,
		aspectRatio,
		modelId,
		isFavoritesOnly: Boolean(board.isFavoritesOnly || page.isFavoritesOnly),
		from: latest(board.from, page.from),
		to: earliest(board.to, page.to),
		// A board names no style or batch: the page's narrow it (a card's batch chip on a board).
		styleId: page.styleId,
		batchId: page.batchId,
	};
}
