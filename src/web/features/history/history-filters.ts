import { type AspectRatio, readRatioParam, toRatioParam } from "../../../shared/aspect-ratios";
import { MAX_SEARCH_LENGTH } from "../../../shared/constants";

/**
 * What the history is narrowed to, as the address says: `?q=fox&ratio=16:9&favorites=true` and,
 * for the administrator, `&owner=alice@example.com`. Kept in the address so that a reload, Back
 * and Forward, and a shared link all show the same history.
 */
export type HistoryFilters = {
	search: string;
	aspectRatio: AspectRatio | null;
	isFavoritesOnly: boolean;
	ownerEmail: string;
};

export const NO_FILTERS: HistoryFilters = {
	search: "",
	aspectRatio: null,
	isFavoritesOnly: false,
	ownerEmail: "",
};

const PARAMS = { search: "q", ratio: "ratio", favorites: "favorites", owner: "owner" } as const;

/** Reads the filters from the address; what does not make sense there (or is not theirs) is ignored. */
export function readHistoryFilters(
	params: URLSearchParams,
	options: { isAdmin: boolean },
): HistoryFilters {
	return {
		search: (params.get(PARAMS.search) ?? "").trim().slice(0, MAX_SEARCH_LENGTH),
		aspectRatio: readRatioParam(params.get(PARAMS.ratio)),
		isFavoritesOnly: params.get(PARAMS.favorites) === "true",
		ownerEmail: options.isAdmin ? (params.get(PARAMS.owner) ?? "").trim() : "",
	};
}

/** The address's search part for `filters`, keeping any other parameter of `current`. */
export function writeHistoryFilters(
	current: URLSearchParams,
	filters: HistoryFilters,
): URLSearchParams {
	const params = new URLSearchParams(current);
	const set = (name: string, value: string | null) => {
		if (value) params.set(name, value);
		else params.delete(name);
	};
	set(PARAMS.search, filters.search);
	set(PARAMS.ratio, filters.aspectRatio ? toRatioParam(filters.aspectRatio) : null);
	set(PARAMS.favorites, filters.isFavoritesOnly ? "true" : null);
	set(PARAMS.owner, filters.ownerEmail);
	return params;
}

/** True when the history shows only part of itself: a search or any filter. */
export function isFiltered(filters: HistoryFilters): boolean {
	return (
		filters.search !== "" ||
		filters.aspectRatio !== null ||
		filters.isFavoritesOnly ||
		filters.ownerEmail !== ""
	);
}
