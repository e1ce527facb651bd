import { useEffect, useRef } from "react";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { HistoryLoadFailure } from "./history-states";

const END_OF_HISTORY_TEXT = "You have reached the end of the history.";

type HistoryListFooterProps = {
	hasNextPage: boolean;
	isFetchingNextPage: boolean;
	isNextPageError: boolean;
	/** How many pages are loaded; a new page re-checks whether the end is still near. */
	pageCount: number;
	onLoadMore: () => void;
};

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
					<HistoryLoadFailure onTryAgain={onLoadMore} isRetrying={false} isCompact />
				</div>
			) : isFetchingNextPage ? (
				<p className="flex h-10 items-center text-accent-600">
					<Spinner label="Loading more generations" />
				</p>
			) : hasNextPage ? (
				<Button variant="secondary" onClick={onLoadMore}>
					Load more
				</Button>
			) : (
				<p className="text-sm text-slate-500">{END_OF_HISTORY_TEXT}</p>
			)}
		</div>
	);
}
