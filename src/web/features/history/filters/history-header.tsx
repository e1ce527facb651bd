import { ArrowLeft, LayoutGrid, ScrollText, ShieldCheck } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { APP_PATHS } from "../../../../shared/core/app-routes";
import {
	historyAdminBadge,
	historyAdminView,
	historyAdminViewNote,
	historyAllBoards,
	historyAuditLog,
	historyBack,
	historyBoardsLink,
	historySearching,
	historyTitle,
	historyTitleAdmin,
} from "../../../../shared/i18n/messages";
import { Badge } from "../../../components/basics/badge";
import { Button } from "../../../components/basics/button";
import { formatSummary } from "../cards/history-format";

type HistoryCounts = { total: number; today: number };

function SummaryLine({
	counts,
	isFiltered,
}: {
	counts: HistoryCounts | undefined;
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

function BackButton() {
	const navigate = useNavigate();
	const location = useLocation();
	const goBack = () => {
		// Opened directly (a bookmark, a new tab), there is no step back inside the app: go home.
		if (location.key === "default") void navigate(APP_PATHS.generator);
		else void navigate(-1);
	};
	return (
		<Button variant="ghost" size="sm" onClick={goBack} className="-ml-3">
			<ArrowLeft aria-hidden="true" className="size-4" />
			{historyBack()}
		</Button>
	);
}

function AdminBanner() {
	return (
		<div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-800 ring-1 ring-accent-200 ring-inset">
			<p className="flex items-start gap-2">
				<ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
				<span>
					<strong className="font-semibold">{historyAdminView()}</strong>
					{historyAdminViewNote()}
				</span>
			</p>
			<Link
				to={APP_PATHS["audit-log"]}
				className="inline-flex items-center gap-1.5 font-semibold underline-offset-2 hover:underline"
			>
				<ScrollText aria-hidden="true" className="size-4" />
				{historyAuditLog()}
			</Link>
		</div>
	);
}

/**
 * The top of the history: Back, the title (the administrator's says "All Generations", with a
 * badge), the summary of what is shown, and for the administrator the banner with the audit log's
 * link. `counts` is undefined while the first page loads; `isSummaryHidden` when it failed.
 */
export function HistoryHeader({
	isAdmin,
	headingRef,
	counts,
	isFiltered,
	isSummaryHidden,
	isSearching,
	title,
	children,
}: {
	isAdmin: boolean;
	/** Where focus goes when the last card of the list is deleted. */
	headingRef: RefObject<HTMLHeadingElement | null>;
	counts: HistoryCounts | undefined;
	isFiltered: boolean;
	isSummaryHidden: boolean;
	/** A new search is loading while the last one's cards stay: said to screen readers. */
	isSearching: boolean;
	/** A board's page: its name instead of the history's title. */
	title?: string | undefined;
	/** A board's page: what it says of the board and its actions, under the title. */
	children?: ReactNode;
}) {
	return (
		<>
			<BackButton />
			<div>
				<div className="flex flex-wrap items-center gap-3">
					<h1
						ref={headingRef}
						tabIndex={-1}
						className="text-3xl font-semibold tracking-tight text-slate-900 focus:outline-none"
					>
						{title ?? (isAdmin ? historyTitleAdmin() : historyTitle())}
					</h1>
					{isAdmin && title === undefined ? (
						<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>
							{historyAdminBadge()}
						</Badge>
					) : null}
					{title === undefined ? (
						<Link
							to={APP_PATHS.boards}
							className="ml-auto inline-flex items-center gap-1.5 text-sm font-semibold text-accent-700 underline-offset-2 hover:underline"
						>
							<LayoutGrid aria-hidden="true" className="size-4" />
							{historyBoardsLink()}
						</Link>
					) : (
						<Link
							to={APP_PATHS.boards}
							className="ml-auto text-sm font-semibold text-accent-700 underline-offset-2 hover:underline"
						>
							{historyAllBoards()}
						</Link>
					)}
				</div>
				{isSummaryHidden ? null : <SummaryLine counts={counts} isFiltered={isFiltered} />}
				{children}
				<p role="status" className="sr-only">
					{isSearching ? historySearching() : ""}
				</p>
			</div>
			{isAdmin && title === undefined ? <AdminBanner /> : null}
		</>
	);
}
