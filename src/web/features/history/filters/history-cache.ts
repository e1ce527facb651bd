import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type {
	Generation,
	GenerationPage,
} from "../../../../shared/generations/generation-responses";
import type { HistoryFilters } from "./history-filters";

type GenerationsData = InfiniteData<GenerationPage, string | null>;

const LIST_KEY_PREFIX = ["generations", "list"] as const;

/**
 * The cache key of the history list of what matches `query`, counted in `timeZone`; a board's
 * page (its id) is a list of its own.
 */
export function createGenerationsListKey(
	timeZone: string,
	filters: HistoryFilters,
	boardId: string | null = null,
) {
	return [...LIST_KEY_PREFIX, timeZone, filters, boardId] as const;
}

/** Every loaded item in page order, each id once (a page boundary may repeat one after a change). */
export function flattenPages(data: GenerationsData | undefined): Generation[] {
	if (!data) return [];
	const seen = new Set<string>();
	const items: Generation[] = [];
	for (const page of data.pages) {
		for (const item of page.items) {
			if (seen.has(item.id)) continue;
			seen.add(item.id);
			items.push(item);
		}
	}
	return items;
}

// Pages that do not hold the item are returned as they are, so their cards are not drawn again.
function mapPages(
	data: GenerationsData,
	id: string,
	change: (page: GenerationPage) => GenerationPage,
): GenerationsData {
	let isChanged = false;
	const pages = data.pages.map((page) => {
		if (!page.items.some((item) => item.id === id)) return page;
		isChanged = true;
		return change(page);
	});
	return isChanged ? { ...data, pages } : data;
}

/** Puts a fresh copy of one generation in place of the loaded one. */
export function replaceGeneration(data: GenerationsData, fresh: Generation): GenerationsData {
	return mapPages(data, fresh.id, (page) => ({
		...page,
		items: page.items.map((item) => (item.id === fresh.id ? fresh : item)),
	}));
}

/** Shows a generation with its star, or without (a favourite's change, before the server answers). */
export function setFavorite(
	data: GenerationsData,
	id: string,
	isFavorite: boolean,
): GenerationsData {
	return mapPages(data, id, (page) => ({
		...page,
		items: page.items.map((item) =>
			item.id === id && item.is_favorite !== isFavorite
				? { ...item, is_favorite: isFavorite }
				: item,
		),
	}));
}

/**
 * Takes deleted generations out of the loaded pages and the counts at once, so their cards go
 * before the reload (which may span many pages) answers. `isToday` says which counted today.
 */
export function removeGenerations(
	data: GenerationsData,
	ids: ReadonlySet<string>,
	isToday: (generation: Generation) => boolean,
): GenerationsData {
	let removedCount = 0;
	let removedToday = 0;
	const pages = data.pages.map((page) => {
		if (!page.items.some((item) => ids.has(item.id))) return page;
		const items = page.items.filter((item) => {
			if (!ids.has(item.id)) return true;
			removedCount += 1;
			if (isToday(item)) removedToday += 1;
			return false;
		});
		return { ...page, items };
	});
	if (removedCount === 0) return data;
	const [first, ...rest] = pages;
	if (!first) return data;
	return {
		...data,
		pages: [
			{
				...first,
				total: Math.max(0, first.total - removedCount),
				today: Math.max(0, first.today - removedToday),
			},
			...rest,
		],
	};
}

/** Takes one deleted generation out of the loaded pages and the counts (see removeGenerations). */
export function removeGeneration(
	data: GenerationsData,
	id: string,
	options: { isToday: boolean },
): GenerationsData {
	return removeGenerations(data, new Set([id]), () => options.isToday);
}

/** Applies `change` to every cached history list (one per time zone and search or filter). */
export function updateGenerationLists(
	queryClient: QueryClient,
	change: (data: GenerationsData) => GenerationsData,
): void {
	queryClient.setQueriesData<GenerationsData>({ queryKey: LIST_KEY_PREFIX }, (data) =>
		data ? change(data) : data,
	);
}

/** Loads every cached history list again from the server, pages and counts. */
export function reloadGenerationLists(queryClient: QueryClient): Promise<void> {
	return queryClient.invalidateQueries({ queryKey: LIST_KEY_PREFIX });
}

/**
 * Marks every cached history list out of date without reloading the one on screen: after a star
 * changes, the favourites-only list, its counts and other searches load again when next shown,
 * while the cards in view stay where they are.
 */
export function markGenerationListsStale(queryClient: QueryClient): Promise<void> {
	return queryClient.invalidateQueries({ queryKey: LIST_KEY_PREFIX, refetchType: "none" });
}
