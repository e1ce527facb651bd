import { ImagePlus, SearchX } from "lucide-react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../../shared/core/app-routes";
import { SKELETON_CARDS } from "../../../../shared/core/constants";
import {
	historyClearFilters,
	historyClearSearch,
	historyClearSearchAndFilters,
	historyCreateImage,
	historyEmptyDescription,
	historyEmptyTitle,
	historyLoading,
	historyNoMatchFilters,
	historyNoMatchSearch,
	historyNoMatchSearchFiltered,
	historyNoMatchTitle,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import { CARD_GRID_CLASS_NAME } from "./date-group-section";

function SkeletonCard() {
	return (
		<div className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-card ring-1 ring-slate-200/80">
			<div className="aspect-square animate-pulse bg-slate-200/70" />
			<div className="space-y-3 p-4">
				<div className="h-4 w-11/12 animate-pulse rounded bg-slate-200/80" />
				<div className="h-4 w-2/3 animate-pulse rounded bg-slate-200/80" />
				<div className="h-3 w-1/3 animate-pulse rounded bg-slate-200/60" />
				<div className="flex justify-between border-t border-slate-100 pt-3">
					<div className="h-9 w-32 animate-pulse rounded-lg bg-slate-200/70" />
					<div className="h-9 w-20 animate-pulse rounded-lg bg-slate-200/50" />
				</div>
			</div>
		</div>
	);
}

/** The first load: eight cards' worth of placeholders in the real grid, so nothing jumps after. */
export function HistorySkeleton() {
	return (
		<div role="status" aria-live="polite" className="space-y-3">
			<span className="sr-only">{historyLoading()}</span>
			<div aria-hidden="true" className="h-5 w-28 animate-pulse rounded bg-slate-200/80" />
			<div aria-hidden="true" className={CARD_GRID_CLASS_NAME} data-testid="generation-skeletons">
				{Array.from({ length: SKELETON_CARDS }, (_, index) => (
					// biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered.
					<SkeletonCard key={index} />
				))}
			</div>
		</div>
	);
}

export function HistoryEmpty() {
	return (
		<div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-16 text-center shadow-card">
			<span className="inline-flex size-12 items-center justify-center rounded-xl bg-accent-50 text-accent-700 ring-1 ring-accent-200 ring-inset">
				<ImagePlus aria-hidden="true" className="size-6" />
			</span>
			<h2 className="mt-4 text-lg font-semibold text-slate-900">{historyEmptyTitle()}</h2>
			<p className="mt-1.5 max-w-md text-sm text-slate-600">{historyEmptyDescription()}</p>
			<Link to={APP_PATHS.generator} className={`${getButtonClassName()} mt-6`}>
				{historyCreateImage()}
			</Link>
		</div>
	);
}

/** A search or filter that matches nothing: say so, and offer the way back to everything. */
export function HistoryNoMatch({
	search,
	hasFilters,
	onClear,
}: {
	search: string;
	/** Filters other than the search are on (ratio, favourites, person). */
	hasFilters: boolean;
	onClear: () => void;
}) {
	const what = search
		? hasFilters
			? historyNoMatchSearchFiltered({ search })
			: historyNoMatchSearch({ search })
		: historyNoMatchFilters();
	const clearLabel =
		search && hasFilters
			? historyClearSearchAndFilters()
			: search
				? historyClearSearch()
				: historyClearFilters();
	return (
		<div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-16 text-center shadow-card">
			<span className="inline-flex size-12 items-center justify-center rounded-xl bg-slate-100 text-slate-700 ring-1 ring-slate-200 ring-inset">
				<SearchX aria-hidden="true" className="size-6" />
			</span>
			<h2 className="mt-4 text-lg font-semibold text-slate-900">{historyNoMatchTitle()}</h2>
			<p className="mt-1.5 max-w-md text-sm break-words text-slate-600">{what}</p>
			<Button variant="secondary" onClick={onClear} className="mt-6">
				{clearLabel}
			</Button>
		</div>
	);
}
