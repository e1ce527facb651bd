import { ArrowLeft, ScrollText, ShieldCheck } from "lucide-react";
import { type ReactNode, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { createDateGrouper } from "../../../shared/date-groups";
import type { Generation } from "../../../shared/generation-responses";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { AUDIT_LOG_PATH } from "../../lib/app-paths";
import { showToast } from "../../lib/toast";
import { DeleteGenerationDialog } from "./delete-generation-dialog";
import type { GenerationCardActions } from "./generation-card";
import { DeletingIdsContext, SelectionContext } from "./generation-card-contexts";
import { flattenPages } from "./history-cache";
import {
	type HistoryFilters,
	isFiltered,
	NO_FILTERS,
	readHistoryFilters,
	writeHistoryFilters,
} from "./history-filters";
import { formatSummary } from "./history-format";
import { HistoryList } from "./history-list";
import { HistoryListFooter } from "./history-list-footer";
import {
	HistoryEmpty,
	HistoryLoadFailure,
	HistoryNoMatch,
	HistorySkeleton,
} from "./history-states";
import { type FilterChange, HistoryToolbar } from "./history-toolbar";
import { ImagePreviewDialog } from "./image-preview-dialog";
import { SelectionBar } from "./selection-bar";
import { useCompletionWatcher } from "./use-completion-watcher";
import { useHistoryPreview } from "./use-history-preview";
import {
	useDeleteGeneration,
	useDeleteGenerations,
	useHistoryList,
	useRerunGeneration,
	useToggleFavorite,
} from "./use-history-queries";
import { useSelectionMode } from "./use-selection-mode";

const POLLING_URL_MISSING_MESSAGE = "Polling URL not available for this generation";
const PROMPT_COPIED_MESSAGE = "Prompt copied";
const COPY_FAILED_MESSAGE = "Could not copy the prompt. Please select it and copy it yourself.";

type HistoryPageProps = {
	/** The admin sees every user's generations, and the page says so. */
	isAdmin: boolean;
	/** Who is looking: a deletion of someone else's generation names its owner. */
	viewerEmail: string | null;
};

/** What is about to be deleted, and from where: a card (or the preview), or the selection. */
type PendingDelete = { generations: readonly Generation[]; isSelection: boolean };

/** The viewer's IANA zone, so the server counts "today" on the viewer's calendar. */
function readBrowserTimeZone(): string {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
	} catch {
		return "UTC";
	}
}

/** Only web addresses open: a stored URL is never run as a script. */
function resolvePollingUrl(value: string | null): string | null {
	if (!value) return null;
	try {
		const url = new URL(value, window.location.origin);
		return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
	} catch {
		return null;
	}
}

function openPollingUrl(generation: Generation): void {
	const url = resolvePollingUrl(generation.polling_url);
	if (!url) {
		void showToast("error", POLLING_URL_MISSING_MESSAGE);
		return;
	}
	window.open(url, "_blank", "noopener,noreferrer");
}

async function copyPrompt(generation: Generation): Promise<void> {
	try {
		await navigator.clipboard.writeText(generation.prompt);
		void showToast("success", PROMPT_COPIED_MESSAGE);
	} catch {
		void showToast("error", COPY_FAILED_MESSAGE);
	}
}

/** The card shown after `id` in the list, else the one before it: where focus goes when it is deleted. */
function findNeighbourCard(list: HTMLElement | null, ids: ReadonlySet<string>): HTMLElement | null {
	if (!list) return null;
	const cards = Array.from(list.querySelectorAll<HTMLElement>("article[data-generation-id]"));
	const isGoing = (card: HTMLElement) => ids.has(card.dataset.generationId ?? "");
	const last = cards.findLastIndex(isGoing);
	if (last < 0) return null;
	return (
		cards.slice(last + 1).find((card) => !isGoing(card)) ??
		cards.findLast((card) => !isGoing(card)) ??
		null
	);
}

function SummaryLine({
	counts,
	isFiltered,
}: {
	counts: { total: number; today: number } | undefined;
	isFiltered: boolean;
}) {
	if (!counts) {
		return <p aria-hidden="true" className="mt-2 h-5 w-44 animate-pulse rounded bg-slate-200/80" />;
	}
	return (
		<p className="mt-2 text-sm text-slate-600">
			{formatSummary(counts.total, counts.today, { isFiltered })}
		</p>
	);
}

/**
 * The generations history (SPEC.md section 2): the person's own, or everyone's for the admin,
 * grouped by day, loaded a cursor page at a time as the person scrolls; searched and filtered on
 * the server by what the address says; with favourites, downloads, reuse and a selection mode.
 */
export function HistoryPage({ isAdmin, viewerEmail }: HistoryPageProps) {
	const navigate = useNavigate();
	const location = useLocation();
	const [timeZone] = useState(readBrowserTimeZone);
	const groupByDate = useMemo(() => createDateGrouper({ timeZone }), [timeZone]);

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

	const list = useHistoryList(timeZone, filters);
	const items = useMemo(() => flattenPages(list.data), [list.data]);
	const groups = useMemo(() => groupByDate(items), [groupByDate, items]);
	const firstPage = list.data?.pages[0];
	useCompletionWatcher(items);

	// While a new search loads, the last one's cards stay: the summary and the empty state speak of
	// what is shown, not of what was asked for.
	const shownFiltersRef = useRef<HistoryFilters>(filters);
	const isShowingEarlierResults = list.isPlaceholderData;
	const shownFilters = isShowingEarlierResults ? shownFiltersRef.current : filters;
	useLayoutEffect(() => {
		if (!isShowingEarlierResults) shownFiltersRef.current = filters;
	});
	const shownFiltersKey = JSON.stringify(shownFilters);

	const deletion = useDeleteGeneration(timeZone);
	const bulkDeletion = useDeleteGenerations(timeZone);
	const favorite = useToggleFavorite();
	const rerun = useRerunGeneration();
	const deletingIds = useMemo<ReadonlySet<string>>(() => {
		if (deletion.isPending && deletion.variables) return new Set([deletion.variables.id]);
		if (bulkDeletion.isPending && bulkDeletion.variables) {
			return new Set(bulkDeletion.variables.map((generation) => generation.id));
		}
		return new Set();
	}, [deletion.isPending, deletion.variables, bulkDeletion.isPending, bulkDeletion.variables]);

	const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
	const deleteReturnRef = useRef<HTMLElement | null>(null);
	const listRef = useRef<HTMLDivElement>(null);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const toolbarRef = useRef<HTMLDivElement>(null);

	const itemIds = useMemo(() => items.map((item) => item.id), [items]);
	const selection = useSelectionMode(itemIds);
	const { click: clickSelection, clear: clearSelection } = selection;

	const { fetchNextPage, refetch, hasNextPage } = list;
	const loadMore = useCallback(() => {
		void fetchNextPage({ cancelRefetch: false });
	}, [fetchNextPage]);
	const preview = useHistoryPreview({ items, listRef, hasNextPage, loadMore });
	const { open: openPreview } = preview;

	const { mutate: toggleFavorite } = favorite;
	const { mutate: startRerun } = rerun;
	// One object for every card, made once: cards are memoised and must not re-render for it.
	const actions = useMemo<GenerationCardActions>(
		() => ({
			onPreview: openPreview,
			onOpenPolling: openPollingUrl,
			onDelete: (generation, trigger) => {
				deleteReturnRef.current = trigger;
				setPendingDelete({ generations: [generation], isSelection: false });
			},
			onToggleFavorite: (generation) =>
				toggleFavorite({ id: generation.id, isFavorite: !generation.is_favorite }),
			onRerun: (generation) => startRerun(generation),
			onCopyPrompt: (generation) => void copyPrompt(generation),
			onSelect: (generation, options) => clickSelection(generation.id, options),
		}),
		[openPreview, toggleFavorite, startRerun, clickSelection],
	);

	// A new search or filter starts a new selection, and shows its results from the top.
	const shownKeyRef = useRef(shownFiltersKey);
	useLayoutEffect(() => {
		if (shownKeyRef.current === shownFiltersKey) return;
		shownKeyRef.current = shownFiltersKey;
		clearSelection();
		const toolbar = toolbarRef.current;
		if (!toolbar) return;
		// Below the sticky header, with the toolbar in view.
		const toolbarTop = toolbar.getBoundingClientRect().top + window.scrollY - 80;
		if (window.scrollY > toolbarTop) window.scrollTo(0, Math.max(0, toolbarTop));
	}, [shownFiltersKey, clearSelection]);

	const itemsById = useMemo(() => new Map(items.map((item) => [item.id, item])), [items]);
	const previewActions = {
		...actions,
		onDelete: (generation: Generation) => {
			preview.close();
			deleteReturnRef.current = preview.returnFocusRef.current;
			setPendingDelete({ generations: [generation], isSelection: false });
		},
	};

	const { mutate: deleteGeneration } = deletion;
	const { mutate: deleteGenerations } = bulkDeletion;
	const confirmDelete = (generations: readonly Generation[]) => {
		const ids = new Set(generations.map((generation) => generation.id));
		deleteReturnRef.current = findNeighbourCard(listRef.current, ids) ?? headingRef.current;
		const isSelection = pendingDelete?.isSelection ?? false;
		setPendingDelete(null);
		const [only] = generations;
		if (!isSelection && only) {
			deleteGeneration(only);
			return;
		}
		deleteGenerations(generations, { onSuccess: clearSelection });
	};

	const goBack = () => {
		// Opened directly (a bookmark, a new tab), there is no step back inside the app: go home.
		if (location.key === "default") void navigate("/");
		else void navigate(-1);
	};

	const knownOwners = useMemo(
		() =>
			isAdmin
				? [...new Set(items.flatMap((item) => (item.owner_email ? [item.owner_email] : [])))].sort()
				: [],
		[isAdmin, items],
	);

	let content: ReactNode;
	if (list.isPending) {
		content = <HistorySkeleton />;
	} else if (list.isError && !list.data) {
		content = <HistoryLoadFailure onTryAgain={() => void refetch()} isRetrying={list.isFetching} />;
	} else if (items.length === 0) {
		content = isFiltered(shownFilters) ? (
			<HistoryNoMatch
				search={shownFilters.search}
				hasFilters={isFiltered({ ...shownFilters, search: "" })}
				onClear={() => changeFilters({ change: NO_FILTERS })}
			/>
		) : (
			<HistoryEmpty />
		);
	} else {
		content = (
			<div
				aria-busy={isShowingEarlierResults || undefined}
				className={isShowingEarlierResults ? "opacity-60 transition-opacity" : undefined}
			>
				<SelectionContext value={selection.context}>
					<HistoryList
						// A new search or filter is a new list: nothing of the last one's scroll carries over.
						key={shownFiltersKey}
						groups={groups}
						isOwnerShown={isAdmin}
						actions={actions}
						containerRef={listRef}
					/>
				</SelectionContext>
				<HistoryListFooter
					hasNextPage={list.hasNextPage}
					isFetchingNextPage={list.isFetchingNextPage}
					isNextPageError={list.isFetchNextPageError}
					pageCount={list.data?.pages.length ?? 0}
					onLoadMore={loadMore}
				/>
			</div>
		);
	}

	return (
		// No browser scroll anchoring on this screen: the list keeps its first card in view in place
		// itself (history-list.tsx), and two mechanisms moving the same scroll would fight.
		<div
			className={`space-y-6 [overflow-anchor:none] ${selection.isActive ? "pb-40 sm:pb-24" : ""}`}
		>
			<Button variant="ghost" size="sm" onClick={goBack} className="-ml-3">
				<ArrowLeft aria-hidden="true" className="size-4" />
				Back
			</Button>
			<div>
				<div className="flex flex-wrap items-center gap-3">
					<h1
						ref={headingRef}
						tabIndex={-1}
						className="text-3xl font-semibold tracking-tight text-slate-900 focus:outline-none"
					>
						{isAdmin ? "All Generations" : "Saved Generations"}
					</h1>
					{isAdmin ? (
						<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>Admin</Badge>
					) : null}
				</div>
				{list.isError && !list.data ? null : (
					<SummaryLine
						counts={firstPage ? { total: firstPage.total, today: firstPage.today } : undefined}
						isFiltered={isFiltered(shownFilters)}
					/>
				)}
				<p role="status" className="sr-only">
					{isShowingEarlierResults ? "Searching" : ""}
				</p>
			</div>
			{isAdmin ? (
				<div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-800 ring-1 ring-accent-200 ring-inset">
					<p className="flex items-start gap-2">
						<ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
						<span>
							<strong className="font-semibold">Admin View</strong>: you are seeing the generations
							of every user.
						</span>
					</p>
					<Link
						to={AUDIT_LOG_PATH}
						className="inline-flex items-center gap-1.5 font-semibold underline-offset-2 hover:underline"
					>
						<ScrollText aria-hidden="true" className="size-4" />
						Audit log
					</Link>
				</div>
			) : null}
			<div ref={toolbarRef}>
				<HistoryToolbar
					filters={filters}
					onChange={changeFilters}
					isAdmin={isAdmin}
					knownOwners={knownOwners}
					isSelecting={selection.isActive}
					onToggleSelecting={selection.toggle}
				/>
			</div>
			<DeletingIdsContext value={deletingIds}>{content}</DeletingIdsContext>
			{selection.isActive ? (
				<SelectionBar
					selectedIds={selection.selectedIds}
					shownCount={items.length}
					isDeleting={bulkDeletion.isPending}
					onSelectAll={selection.selectAllShown}
					onDelete={() => {
						deleteReturnRef.current = null;
						setPendingDelete({
							generations: selection.selectedIds.flatMap((id) => itemsById.get(id) ?? []),
							isSelection: true,
						});
					}}
					onDone={selection.leave}
				/>
			) : null}
			<ImagePreviewDialog
				target={preview.target}
				isOwnerShown={isAdmin}
				onSelectImage={preview.showImage}
				onStep={preview.step}
				canStep={preview.canStep}
				actions={previewActions}
				onClose={preview.close}
				returnFocusRef={preview.returnFocusRef}
			/>
			<DeleteGenerationDialog
				generations={pendingDelete?.generations ?? null}
				viewerEmail={viewerEmail}
				onConfirm={confirmDelete}
				onCancel={() => setPendingDelete(null)}
				returnFocusRef={deleteReturnRef}
			/>
		</div>
	);
}
