import { type RefObject, useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { type HistoryFilters, readHistoryFilters, writeHistoryFilters } from "./history-filters";
import type { FilterChange } from "./history-toolbar";

/**
 * The filters the address asks for, and the change the toolbar makes to them: a refinement (one
 * more letter typed) replaces the address's entry, anything else adds one, so Back undoes it.
 */
export function useHistoryFilters(isAdmin: boolean) {
	const [searchParams, setSearchParams] = useSearchParams();
	const filters = useMemo(
		() => readHistoryFilters(searchParams, { isAdmin }),
		[searchParams, isAdmin],
	);
	const changeFilters = useCallback(
		({ change, isRefinement = false }: FilterChange) => {
			void setSearchParams(
				(current) =>
					writeHistoryFilters(current, { ...readHistoryFilters(current, { isAdmin }), ...change }),
				{ replace: isRefinement },
			);
		},
		[setSearchParams, isAdmin],
	);
	return { filters, changeFilters };
}

/**
 * The filters of the cards shown. While a new search loads, the last one's cards stay: the summary
 * and the empty state speak of what is shown, not of what was asked for. `shownFiltersKey` changes
 * exactly when another search's results come in.
 */
export function useShownFilters(filters: HistoryFilters, isShowingEarlierResults: boolean) {
	const shownFiltersRef = useRef<HistoryFilters>(filters);
	const shownFilters = isShowingEarlierResults ? shownFiltersRef.current : filters;
	useLayoutEffect(() => {
		if (!isShowingEarlierResults) shownFiltersRef.current = filters;
	});
	return { shownFilters, shownFiltersKey: JSON.stringify(shownFilters) };
}

/**
 * A new search or filter starts a new selection (`onNewResults`), and shows its results from the
 * top: the page scrolls back up to the toolbar when it is below it.
 */
export function useNewResultsFromTop(
	shownFiltersKey: string,
	toolbarRef: RefObject<HTMLElement | null>,
	onNewResults: () => void,
) {
	const shownKeyRef = useRef(shownFiltersKey);
	useLayoutEffect(() => {
		if (shownKeyRef.current === shownFiltersKey) return;
		shownKeyRef.current = shownFiltersKey;
		onNewResults();
		const toolbar = toolbarRef.current;
		if (!toolbar) return;
		// Below the sticky header, with the toolbar in view.
		const toolbarTop = toolbar.getBoundingClientRect().top + window.scrollY - 80;
		if (window.scrollY > toolbarTop) window.scrollTo(0, Math.max(0, toolbarTop));
	}, [shownFiltersKey, toolbarRef, onNewResults]);
}
