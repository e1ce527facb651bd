import { MAX_SEARCH_LENGTH } from "../../../../shared/core/constants";
import {
	type AspectRatio,
	readRatioParam,
	toRatioParam,
} from "../../../../shared/generations/aspect-ratios";

/**
 * What the history is narrowed to, as the address says: `?q=fox&ratio=16:9&model=sketch&favorites=true`
 * and, for the administrator, `&owner=alice@example.com`. Kept in the address so that a reload, Back
 * and Forward, and a shared link all show the same history.
 */
export type HistoryFilters = {
	search: string;
	aspectRatio: AspectRatio | null;
	/** The id of the model the generations were made with; "" for all models. */
	modelId: string;
	isFavoritesOnly: boolean;
	ownerEmail: string;
	/** The id of a style the generations were made with (a card's style chip sets it); "" for any. */
	styleId: string;
	/** The id of a batch: the generations one submission started together (a card's batch chip). */
	batchId: string;
};

export const NO_FILTERS: HistoryFilters = {
	search: "",
	aspectRatio: null,
	modelId: "",
	isFavoritesOnly: false,
	ownerEmail: "",
	styleId: "",
	batchId: "",
};

const PARAMS = {
	search: "q",
	ratio: "ratio",
	model: "model",
	favorites: "favorites",
	owner: "owner",
	style: "style",
	batch: "batch",
} as const;

/** A batch's id is a uuid; anything else is no filter. */
const BATCH_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A model's id as the catalogue allows it (letters, digits, `-`); anything else is no filter. */
const MODEL_ID_PATTERN = /^[A-Za-z0-9-]{1,100}$/;

function readModelId(value: string | null): string {
	const id = (value ?? "").trim();
	return MODEL_ID_PATTERN.test(id) ? id : "";
}

/** Reads the filters from the address; what does not make sense there (or is not theirs) is ignored. */
export function readHistoryFilters(
	params: URLSearchParams,
	options: { isAdmin: boolean },
): HistoryFilters {
	return {
		search: (params.get(PARAMS.search) ?? "").trim().slice(0, MAX_SEARCH_LENGTH),
		aspectRatio: readRatioParam(params.get(PARAMS.ratio)),
		modelId: readModelId(params.get(PARAMS.model)),
		isFavoritesOnly: params.get(PARAMS.favorites) === "true",
		ownerEmail: options.isAdmin ? (params.get(PARAMS.owner) ?? "").trim() : "",
		styleId: readModelId(params.get(PARAMS.style)),
		batchId: BATCH_ID_PATTERN.test(params.get(PARAMS.batch) ?? "")
			? (params.get(PARAMS.batch) ?? "")
			: "",
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
	set(PARAMS.model, filters.modelId);
	set(PARAMS.favorites, filters.isFavoritesOnly ? "true" : null);
	set(PARAMS.owner, filters.ownerEmail);
	set(PARAMS.style, filters.styleId);
	set(PARAMS.batch, filters.batchId);
	return params;
}

/** True when the history shows only part of itself: a search or any filter. */
export function isFiltered(filters: HistoryFilters): boolean {
	return (
		filters.search !== "" ||
		filters.aspectRatio !== null ||
		filters.modelId !== "" ||
		filters.isFavoritesOnly ||
		filters.ownerEmail !== "" ||
		filters.styleId !== "" ||
		filters.batchId !== ""
	);
}
