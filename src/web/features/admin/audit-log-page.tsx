import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import { ArrowLeft, RotateCw, ScrollText, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/app-routes";
import type {
	AuditLogEntry,
	AuditLogPage as AuditLogPageData,
} from "../../../shared/history-responses";
import { AUDIT_LOG_PAGE_SIZE } from "../../../shared/page-sizes";
import { Badge } from "../../components/badge";
import { Button, getButtonClassName } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { fetchAuditLogPage } from "../../lib/admin-requests";
import { formatDateTime } from "../../lib/date-format";
import { AdminNav } from "./admin-nav";

const LOAD_FAILURE_MESSAGE = "Failed to load the audit log. Please try again.";
const EMPTY_MESSAGE = "No actions recorded yet.";

const ACTION_LABELS: Record<AuditLogEntry["action"], string> = {
	delete: "Deleted",
	disable: "Disabled the account",
	enable: "Enabled the account",
	"set-quota": "Set the quotas",
	"delete-account": "Deleted the account",
};

function useAuditLog() {
	return useInfiniteQuery<
		AuditLogPageData,
		Error,
		InfiniteData<AuditLogPageData, string | null>,
		readonly string[],
		string | null
	>({
		queryKey: ["admin", "audit-log"],
		queryFn: ({ pageParam, signal }) =>
			fetchAuditLogPage({ limit: AUDIT_LOG_PAGE_SIZE, cursor: pageParam, signal }),
		initialPageParam: null,
		getNextPageParam: (lastPage) => lastPage.nextCursor,
		// Deletions happen elsewhere all the time: show the latest whenever the screen opens.
		staleTime: 0,
	});
}

function EntryRow({ entry }: { entry: AuditLogEntry }) {
	return (
		<tr className="align-top">
			<td className="py-3 pr-4 text-sm whitespace-nowrap text-slate-700">
				<time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
			</td>
			<td className="py-3 pr-4 text-sm break-all text-slate-900">{entry.actor_email}</td>
			<td className="py-3 pr-4 text-sm break-all text-slate-900">{entry.owner_email}</td>
			<td className="py-3 text-sm text-slate-900">
				<span className="font-medium">{ACTION_LABELS[entry.action]}</span>
				{entry.prompt !== null ? <span className="break-words"> “{entry.prompt}”</span> : null}
				{entry.generation_id !== null ? (
					<span className="mt-0.5 block font-mono text-xs break-all text-slate-600">
						{entry.generation_id}
					</span>
				) : null}
				{entry.details !== null ? (
					<span className="mt-0.5 block text-xs text-slate-600">{entry.details}</span>
				) : null}
			</td>
		</tr>
	);
}

/**
 * The administrator's audit log, newest first: every deletion of a generation (who deleted whose,
 * what it was, and when) and every action on a person's account from the People page. Loaded a
 * cursor page at a time.
 */
export function AuditLogPage() {
	const log = useAuditLog();
	const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

	let content: ReactNode;
	if (log.isPending) {
		content = (
			<p className="flex justify-center py-16 text-accent-600">
				<Spinner size="lg" label="Loading the audit log" />
			</p>
		);
	} else if (log.isError && !log.data) {
		content = (
			<div
				role="alert"
				className="flex flex-col items-center gap-4 rounded-2xl bg-white/80 px-6 py-12 text-center shadow-card ring-1 ring-red-200 ring-inset"
			>
				<p className="font-medium text-red-800">{LOAD_FAILURE_MESSAGE}</p>
				<Button variant="secondary" onClick={() => void log.refetch()} isBusy={log.isFetching}>
					{log.isFetching ? null : <RotateCw aria-hidden="true" className="size-4" />}
					Try Again
				</Button>
			</div>
		);
	} else if (entries.length === 0) {
		content = (
			<p className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-12 text-center text-sm text-slate-600">
				{EMPTY_MESSAGE}
			</p>
		);
	} else {
		content = (
			<div className="space-y-4">
				<div className="overflow-x-auto rounded-2xl bg-white px-4 shadow-card ring-1 ring-slate-200/80 sm:px-6">
					<table className="w-full min-w-[40rem] border-collapse text-left">
						<caption className="sr-only">
							Deletions of generations and actions on accounts, newest first
						</caption>
						<thead>
							<tr className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-600 uppercase">
								<th scope="col" className="py-3 pr-4">
									When
								</th>
								<th scope="col" className="py-3 pr-4">
									Who
								</th>
								<th scope="col" className="py-3 pr-4">
									Whose
								</th>
								<th scope="col" className="py-3">
									What
								</th>
							</tr>
						</thead>
						<tbody className="divide-y divide-slate-100">
							{entries.map((entry) => (
								<EntryRow key={entry.id} entry={entry} />
							))}
						</tbody>
					</table>
				</div>
				{log.isFetchNextPageError ? (
					<p role="alert" className="text-center text-sm font-medium text-red-800">
						{LOAD_FAILURE_MESSAGE}
					</p>
				) : null}
				{log.hasNextPage ? (
					<div className="flex justify-center">
						<Button
							variant="secondary"
							onClick={() => void log.fetchNextPage()}
							isBusy={log.isFetchingNextPage}
						>
							Load more
						</Button>
					</div>
				) : null}
			</div>
		);
	}

	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<Link
					to={APP_PATHS.generations}
					className={`${getButtonClassName({ variant: "ghost", size: "sm" })} -ml-3`}
				>
					<ArrowLeft aria-hidden="true" className="size-4" />
					All Generations
				</Link>
			</div>
			<div>
				<div className="flex flex-wrap items-center gap-3">
					<h1 className="flex items-center gap-2 text-3xl font-semibold tracking-tight text-slate-900">
						<ScrollText aria-hidden="true" className="size-7 text-accent-600" />
						Audit log
					</h1>
					<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>Admin</Badge>
				</div>
				<div className="mt-3">
					<AdminNav />
				</div>
				<p className="mt-2 text-sm text-slate-600">
					Who deleted whose generation, what it was and when, and what was done to people's
					accounts, newest first.
				</p>
			</div>
			{content}
		</div>
	);
}
