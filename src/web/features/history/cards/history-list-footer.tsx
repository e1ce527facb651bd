import { RotateCw } from "lucide-react";
import { useEffect, useRef } from "react";
import {
	historyEnd,
	historyLoadFailed,
	historyLoadingMore,
	historyLoadMore,
	historyTryAgain,
} from "../../../../shared/i18n/messages";
import { Button } from "../../../components/basics/button";
import { Spinner } from "../../../components/basics/spinner";

type HistoryListFooterProps = {
	hasNextPage: boolean;
	isFetchingNextPage: boolean;
	isNextPageError: boolean;
	/** How many pages are loaded; a new page re-checks whether the end is still near. */
	pageCount: number;
	onLoadMore: () => void;
};

/** A later page's failure, under the cards already shown, with Try Again. */
function NextPageFailure({ onTryAgain }: { onTryAgain: () => void }) {
	return (
		<div
			role="alert"
			className="flex flex-col items-center gap-3 rounded-xl bg-red-50 px-4 py-4 text-center ring-1 ring-red-200 ring-inset sm:flex-row sm:justify-between sm:text-left"
		>
			<p className="text-sm font-medium text-red-800">{historyLoadFailed()}</p>
			<Button variant="secondary" onClick={onTryAgain}>
				<RotateCw aria-hidden="true" className="size-4" />
				{historyTryAgain()}
			</Button>
		</div>
	);
}

/**
 * Loads the next cursor page when the end of the list comes within a screen of the viewport, and
 * offers the same as a button for keyboards and for browsers without IntersectionObserver.
 */
export function HistoryListFooter({
	hasNextPage,
	isFetchingNextPage,
	isNextPageError,
	pageCount,
	onLoadMore,
}: HistoryListFooterProps) {
	const sentinelRef = useRef<HTMLDivElement>(null);
	const onLoadMoreRef = useRef(onLoadMore);
	useEffect(() => {
		onLoadMoreRef.current = onLoadMore;
	});
	const isWatching = hasNextPage && !isFetchingNextPage && !isNextPageError;

	// A new page must re-observe: an observer reports only changes, and the sentinel may still be
	// near the viewport after a page has been added.
	// biome-ignore lint/correctness/useExhaustiveDependencies: pageCount is the re-observe trigger.
	useEffect(() => {
		const sentinel = sentinelRef.current;
		if (!isWatching || !sentinel || typeof IntersectionObserver === "undefined") return;
		const observer = new IntersectionObserver(
			(entries) => {
				if (entries.some((entry) => entry.isIntersecting)) onLoadMoreRef.current();
			},
			{ rootMargin: "0px 0px 100% 0px" },
		);
		observer.observe(sentinel);
		return () => observer.disconnect();
	}, [isWatching, pageCount]);

	return (
		<div className="mt-10 flex flex-col items-center gap-3">
			<div ref={sentinelRef} aria-hidden="true" className="h-px w-full" />
			{isNextPageError ? (
				<div className="w-full">
					<NextPageFailure onTryAgain={onLoadMore} />
				</div>
			) : isFetchingNextPage ? (
				<p className="flex h-10 items-center text-accent-600">
					<Spinner label={historyLoadingMore()} />
				</p>
			) : hasNextPage ? (
				<Button variant="secondary" onClick={onLoadMore}>
					{historyLoadMore()}
				</Button>
			) : (
				<p className="text-sm text-slate-500">{historyEnd()}</p>
			)}
		</div>
	);
}
