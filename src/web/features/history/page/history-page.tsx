import { lazy, type ReactNode, Suspense, useCallback, useMemo, useRef, useState } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import { createDateGrouper } from "../../../../shared/history/date-groups";
import {
	historyLoadFailed,
	historyLoading,
	historyUnknownDate,
} from "../../../../shared/i18n/messages";
import { QueryStatus } from "../../../components/basics/query-status";
import { usePublicConfig } from "../../../lib/api/public-config";
import { useOfferedModels } from "../../../lib/generations/models-requests";
import { readDateLocale } from "../../../lib/ui/date-format";
import { AddToBoardDialog } from "../actions/add-to-board-dialog";
import { DeleteGenerationDialog } from "../actions/delete-generation-dialog";
import { SelectionBar } from "../actions/selection-bar";
import { useCompletionWatcher, useNewActiveGenerations } from "../actions/use-completion-watcher";
import { useHistoryCardActions } from "../actions/use-history-card-actions";
import { useHistoryDeletion } from "../actions/use-history-deletion";
import { useHistoryList } from "../actions/use-history-queries";
import { useSelectionMode } from "../actions/use-selection-mode";
import {
	ActiveProgressContext,
	DeletingIdsContext,
	SelectionContext,
} from "../cards/generation-card-contexts";
import { isModelGone, listModelChoices } from "../cards/generation-reuse";
import { HistoryList } from "../cards/history-list";
import { HistoryListFooter } from "../cards/history-list-footer";
import { HistoryEmpty, HistoryNoMatch, HistorySkeleton } from "../cards/history-states";
import { flattenPages } from "../filters/history-cache";
import { isFiltered, NO_FILTERS } from "../filters/history-filters";
import { HistoryHeader } from "../filters/history-header";
import { HistoryToolbar } from "../filters/history-toolbar";
import {
	useHistoryFilters,
	useNewResultsFromTop,
	useShownFilters,
} from "../filters/use-history-filters";
import { ImagePreviewDialog } from "../preview/image-preview-dialog";
import { ModelGoneDialog } from "../preview/model-gone-dialog";
import { useHistoryPreview } from "../preview/use-history-preview";
import { useLinkedResult } from "../preview/use-linked-result";
import { useRequestedResult } from "../preview/use-requested-result";

// Loaded when Share is chosen in a card's menu, not with the history.
const ShareDialog = lazy(async () => ({
	default: (await import("../../../components/images/share-dialog")).ShareDialog,
}));

/** A board's page: the history of what is on the board (decision 032). */
export type BoardMode = {
	id: string;
	name: string;
	/** Its owner or the administrator: generations may be put on it and taken off. */
	canChange: boolean;
	/** A smart board shows what its search matches: nothing is put on it or taken off. */
	isSmart: boolean;
	/** What the page says of the board, and its actions, under its name. */
	header: ReactNode;
};

type HistoryPageProps = {
	/** The admin sees every user's generations, and the page says so. */
	isAdmin: boolean;
	/** Who is looking: a deletion of someone else's generation names its owner. */
	viewerEmail: string | null;
	/** Given, the page is that board's. */
	board?: BoardMode | undefined;
};

/** The viewer's IANA zone, so the server counts "today" on the viewer's calendar. */
function readBrowserTimeZone(): string {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
	} catch {
		return "UTC";
	}
}

/** The owners of the loaded generations, for the administrator's filter by person. */
function listKnownOwners(items: readonly Generation[]): string[] {
	return [...new Set(items.flatMap((item) => (item.owner_email ? [item.owner_email] : [])))].sort();
}

/**
 * The generations history (SPEC.md section 2): the person's own, or everyone's for the admin,
 * grouped by day, loaded a cursor page at a time as the person scrolls; searched and filtered on
 * the server by what the address says (search, ratio, model, favourites, person); with favourites,
 * downloads, reuse (Use prompt, Use settings, Rerun) and a selection mode.
 */
export function HistoryPage({ isAdmin, viewerEmail, board }: HistoryPageProps) {
	const [timeZone] = useState(readBrowserTimeZone);
	const groupByDate = useMemo(
		() =>
			createDateGrouper({ timeZone, locale: readDateLocale(), unknownLabel: historyUnknownDate() }),
		[timeZone],
	);
	const { filters, changeFilters } = useHistoryFilters(isAdmin);

	const list = useHistoryList(timeZone, filters, board?.id ?? null);
	const items = useMemo(() => flattenPages(list.data), [list.data]);
	const groups = useMemo(() => groupByDate(items), [groupByDate, items]);
	const firstPage = list.data?.pages[0];
	useCompletionWatcher(items);
	const activeProgress = useNewActiveGenerations(items);
	const isShowingEarlierResults = list.isPlaceholderData;
	const { shownFilters, shownFiltersKey } = useShownFilters(filters, isShowingEarlierResults);

	const listRef = useRef<HTMLDivElement>(null);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const toolbarRef = useRef<HTMLDivElement>(null);
	const itemIds = useMemo(() => items.map((item) => item.id), [items]);
	const selection = useSelectionMode(itemIds);
	const { click: clickSelection, clear: clearSelection } = selection;
	useNewResultsFromTop(shownFiltersKey, toolbarRef, clearSelection);
	const trashConfig = usePublicConfig();
	const deletion = useHistoryDeletion({
		timeZone,
		listRef,
		headingRef,
		onSelectionDeleted: clearSelection,
		hasTrash: trashConfig.data?.trash === true,
		viewerEmail,
	});
	const { ask: askToDelete } = deletion;

	const { fetchNextPage, hasNextPage } = list;
	const loadMore = useCallback(() => {
		void fetchNextPage({ cancelRefetch: false });
	}, [fetchNextPage]);
	const preview = useHistoryPreview({ items, listRef, hasNextPage, loadMore });
	const { open: openPreview } = preview;
	// A notification's click: the result of the generation it told of.
	useRequestedResult({ items, isListLoaded: list.data !== undefined, listRef, openPreview });
	// A push notification's click, which opens the history with the generation in its address.
	useLinkedResult();

	const offeredModels = useOfferedModels();
	const publicConfig = usePublicConfig();
	const {
		actions,
		previewActions,
		canChangeGenerations,
		canChooseBoards,
		chooseBoards,
		removableBoard,
		removeFromBoard,
		boardChoice,
		sharing,
		goneModelRerun,
	} = useHistoryCardActions({
		board,
		viewerEmail,
		listRef,
		openPreview,
		askToDelete,
		clickSelection,
		preview,
	});
	const itemsById = useMemo(() => new Map(items.map((item) => [item.id, item])), [items]);
	const knownOwners = useMemo(() => (isAdmin ? listKnownOwners(items) : []), [isAdmin, items]);
	const modelChoices = useMemo(
		() => listModelChoices(offeredModels.data, filters.modelId, items),
		[offeredModels.data, filters.modelId, items],
	);

	let content: ReactNode;
	if (list.isPending || (list.isError && !list.data)) {
		content = (
			<QueryStatus
				query={list}
				loadingLabel={historyLoading()}
				loading={<HistorySkeleton />}
				failureMessage={historyLoadFailed()}
			/>
		);
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
			<HistoryHeader
				isAdmin={isAdmin}
				headingRef={headingRef}
				counts={firstPage ? { total: firstPage.total, today: firstPage.today } : undefined}
				isFiltered={isFiltered(shownFilters)}
				isSummaryHidden={list.isError && !list.data}
				isSearching={isShowingEarlierResults}
				title={board?.name}
			>
				{board?.header}
			</HistoryHeader>
			<div ref={toolbarRef}>
				<HistoryToolbar
					filters={filters}
					onChange={changeFilters}
					isAdmin={isAdmin}
					knownOwners={knownOwners}
					modelChoices={modelChoices}
					isModelFilterShown={publicConfig.data?.modelChoice === true}
					isSelecting={selection.isActive}
					onToggleSelecting={selection.toggle}
					styleName={
						items.find((item) => item.style?.id === filters.styleId)?.style?.name ?? undefined
					}
				/>
			</div>
			<DeletingIdsContext value={deletion.deletingIds}>
				<ActiveProgressContext value={activeProgress}>{content}</ActiveProgressContext>
			</DeletingIdsContext>
			{selection.isActive ? (
				<SelectionBar
					selectedIds={selection.selectedIds}
					shownCount={items.length}
					isDeleting={deletion.isSelectionDeleting}
					onSelectAll={selection.selectAllShown}
					onDelete={
						canChangeGenerations
							? () =>
									askToDelete(
										selection.selectedIds.flatMap((id) => itemsById.get(id) ?? []),
										{ isSelection: true, returnFocusTo: null },
									)
							: undefined
					}
					onDone={selection.leave}
					onAddToBoard={canChooseBoards ? () => chooseBoards(selection.selectedIds) : undefined}
					onRemoveFromBoard={
						removableBoard ? () => removeFromBoard(selection.selectedIds) : undefined
					}
				/>
			) : null}
			<ImagePreviewDialog
				target={preview.target}
				isOwnerShown={isAdmin}
				isModelGone={
					preview.target ? isModelGone(preview.target.generation, offeredModels.data) : false
				}
				onSelectImage={preview.showImage}
				onShowGeneration={preview.show}
				onStep={preview.step}
				canStep={preview.canStep}
				actions={previewActions}
				onClose={preview.close}
				returnFocusRef={preview.returnFocusRef}
			/>
			<ModelGoneDialog
				generation={goneModelRerun.generation}
				onClose={goneModelRerun.close}
				returnFocusRef={goneModelRerun.focusRef}
			/>
			{sharing.generation ? (
				<Suspense fallback={null}>
					<ShareDialog
						key={sharing.generation.id}
						subject={{
							generationId: sharing.generation.id,
							imageIndex: 0,
							imageCount: sharing.generation.images.length,
						}}
						isOpen
						onClose={sharing.close}
						returnFocusRef={sharing.focusRef}
					/>
				</Suspense>
			) : null}
			<AddToBoardDialog
				generationIds={boardChoice.ids}
				onClose={boardChoice.close}
				returnFocusRef={boardChoice.focusRef}
			/>
			<DeleteGenerationDialog
				generations={deletion.pendingGenerations}
				viewerEmail={viewerEmail}
				onConfirm={deletion.confirm}
				onCancel={deletion.cancel}
				returnFocusRef={deletion.returnFocusRef}
			/>
		</div>
	);
}
