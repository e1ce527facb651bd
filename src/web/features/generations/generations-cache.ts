import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Generation, GenerationPage } from "../../../shared/generation-responses";

type GenerationsData = InfiniteData<GenerationPage, string | null>;

const LIST_KEY_PREFIX = ["generations", "list"] as const;

/** The cache key of the history list as counted in `timeZone`. */
export function createGenerationsListKey(timeZone: string) {
	return [...LIST_KEY_PREFIX, timeZone] as const;
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

/**
 * Takes a deleted generation out of the loaded pages and the counts at once, so the card goes
 * before the reload (which may span many pages) answers.
 */
export function removeGeneration(
	data: GenerationsData,
	id: string,
	options: { isToday: boolean },
): GenerationsData {
	const removed = mapPages(data, id, (page) => ({
		...page,
		items: page.items.filter((item) => item.id !== id),
	}));
	if (removed === data) return data;
	const [first, ...rest] = removed.pages;
	if (!first) return removed;
	return {
		...removed,
		pages: [
			{
				...first,
				total: Math.max(0, first.total - 1),
				today: options.isToday ? Math.max(0, first.today - 1) : first.today,
			},
			...rest,
		],
	};
}

/** Applies `change` to every cached history list (one per time zone, in practice one). */
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
