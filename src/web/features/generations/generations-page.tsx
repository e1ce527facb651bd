import { ArrowLeft, ShieldCheck } from "lucide-react";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { createDateGrouper } from "../../../shared/date-groups";
import type { Generation } from "../../../shared/generation-responses";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { showToast } from "../../lib/toast";
import { DeleteGenerationDialog } from "./delete-generation-dialog";
import { DeletingIdContext, type GenerationCardActions } from "./generation-card";
import { formatSummary } from "./generation-format";
import { flattenPages } from "./generations-cache";
import { GenerationsListFooter } from "./generations-list-footer";
import {
	GenerationsEmpty,
	GenerationsLoadFailure,
	GenerationsSkeleton,
} from "./generations-states";
import { HistoryList } from "./history-list";
import { ImagePreviewDialog, type PreviewTarget } from "./image-preview-dialog";
import { useCompletionWatcher } from "./use-completion-watcher";
import { useDeleteGeneration, useGenerationsList } from "./use-generations";

const POLLING_URL_MISSING_MESSAGE = "Polling URL not available for this generation";

type GenerationsPageProps = {
	/** The admin sees every user's generations, and the page says so. */
	isAdmin: boolean;
};

/** Only web addresses open: a stored URL is never run as a script. */
/** The viewer's IANA zone, so the server counts "today" on the viewer's calendar. */
function readBrowserTimeZone(): string {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
	} catch {
		return "UTC";
	}
}

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

/** The card shown after `id` in the list, else the one before it: where focus goes when it is deleted. */
function findNeighbourCard(list: HTMLElement | null, id: string): HTMLElement | null {
	if (!list) return null;
	const cards = Array.from(list.querySelectorAll<HTMLElement>("article[data-generation-id]"));
	const index = cards.findIndex((card) => card.dataset.generationId === id);
	if (index < 0) return null;
	return cards[index + 1] ?? cards[index - 1] ?? null;
}

function SummaryLine({ counts }: { counts: { total: number; today: number } | undefined }) {
	if (!counts) {
		return <p aria-hidden="true" className="mt-2 h-5 w-44 animate-pulse rounded bg-slate-200/80" />;
	}
	return <p className="mt-2 text-sm text-slate-600">{formatSummary(counts.total, counts.today)}</p>;
}

/**
 * The generations history (SPEC.md section 2): the person's own, or everyone's for the admin,
 * grouped by day, loaded a cursor page at a time as the person scrolls.
 */
export function GenerationsPage({ isAdmin }: GenerationsPageProps) {
	const navigate = useNavigate();
	const location = useLocation();
	const [timeZone] = useState(readBrowserTimeZone);
	const groupByDate = useMemo(() => createDateGrouper({ timeZone }), [timeZone]);

	const list = useGenerationsList(timeZone);
	const items = useMemo(() => flattenPages(list.data), [list.data]);
	const groups = useMemo(() => groupByDate(items), [groupByDate, items]);
	const firstPage = list.data?.pages[0];
	useCompletionWatcher(items);

	const deletion = useDeleteGeneration(timeZone);
	const deletingId = deletion.isPending ? (deletion.variables?.id ?? null) : null;

	const [preview, setPreview] = useState<PreviewTarget | null>(null);
	const previewReturnRef = useRef<HTMLElement | null>(null);
	const [pendingDelete, setPendingDelete] = useState<Generation | null>(null);
	const deleteReturnRef = useRef<HTMLElement | null>(null);
	const listRef = useRef<HTMLDivElement>(null);
	const headingRef = useRef<HTMLHeadingElement>(null);

	// One object for every card, made once: cards are memoised and must not re-render for it.
	const actions = useMemo<GenerationCardActions>(
		() => ({
			onPreview: (generation, imageIndex, trigger) => {
				previewReturnRef.current = trigger;
				setPreview({ generation, imageIndex });
			},
			onOpenPolling: openPollingUrl,
			onDelete: (generation, trigger) => {
				deleteReturnRef.current = trigger;
				setPendingDelete(generation);
			},
		}),
		[],
	);

	const { mutate: deleteGeneration } = deletion;
	const confirmDelete = useCallback(
		(generation: Generation) => {
			deleteReturnRef.current =
				findNeighbourCard(listRef.current, generation.id) ?? headingRef.current;
			setPendingDelete(null);
			deleteGeneration(generation);
		},
		[deleteGeneration],
	);

	const goBack = () => {
		// Opened directly (a bookmark, a new tab), there is no step back inside the app: go home.
		if (location.key === "default") void navigate("/");
		else void navigate(-1);
	};

	const { fetchNextPage, refetch } = list;
	const loadMore = useCallback(() => {
		void fetchNextPage({ cancelRefetch: false });
	}, [fetchNextPage]);

	let content: ReactNode;
	if (list.isPending) {
		content = <GenerationsSkeleton />;
	} else if (list.isError && !list.data) {
		content = (
			<GenerationsLoadFailure onTryAgain={() => void refetch()} isRetrying={list.isFetching} />
		);
	} else if (items.length === 0) {
		content = <GenerationsEmpty />;
	} else {
		content = (
			<>
				<DeletingIdContext value={deletingId}>
					<HistoryList
						groups={groups}
						isOwnerShown={isAdmin}
						actions={actions}
						containerRef={listRef}
					/>
				</DeletingIdContext>
				<GenerationsListFooter
					hasNextPage={list.hasNextPage}
					isFetchingNextPage={list.isFetchingNextPage}
					isNextPageError={list.isFetchNextPageError}
					pageCount={list.data?.pages.length ?? 0}
					onLoadMore={loadMore}
				/>
			</>
		);
	}

	return (
		// No browser scroll anchoring on this screen: the list keeps its first card in view in place
		// itself (history-list.tsx), and two mechanisms moving the same scroll would fight.
		<div className="space-y-6 [overflow-anchor:none]">
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
					/>
				)}
			</div>
			{isAdmin ? (
				<p className="flex items-start gap-2 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-800 ring-1 ring-accent-200 ring-inset">
					<ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
					<span>
						<strong className="font-semibold">Admin View</strong>: you are seeing the generations of
						every user.
					</span>
				</p>
			) : null}
			{content}
			<ImagePreviewDialog
				target={preview}
				isOwnerShown={isAdmin}
				onSelectImage={(imageIndex) =>
					setPreview((current) => (current ? { ...current, imageIndex } : current))
				}
				onClose={() => setPreview(null)}
				returnFocusRef={previewReturnRef}
			/>
			<DeleteGenerationDialog
				generation={pendingDelete}
				onConfirm={confirmDelete}
				onCancel={() => setPendingDelete(null)}
				returnFocusRef={deleteReturnRef}
			/>
		</div>
	);
}
