import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import type { ReactNode } from "react";
import { AUDIT_LOG_PAGE_SIZE } from "../../../shared/core/page-sizes";
import type {
	AuditLogEntry,
	AuditLogPage as AuditLogPageData,
} from "../../../shared/history/history-responses";
import {
	adminAuditCaption,
	adminAuditDeleted,
	adminAuditDeletedAccount,
	adminAuditDescription,
	adminAuditDisabled,
	adminAuditEmpty,
	adminAuditEnabled,
	adminAuditHidShare,
	adminAuditLoadFailed,
	adminAuditLoading,
	adminAuditLoadMore,
	adminAuditPurged,
	adminAuditRestored,
	adminAuditRevokedShare,
	adminAuditSetQuota,
	adminAuditWhen,
	adminAuditWho,
	adminAuditWhose,
	adminColumnWhat,
	adminNavAuditLog,
} from "../../../shared/i18n/messages";
import { Button } from "../../components/basics/button";
import { DataTable } from "../../components/basics/data-table";
import { QueryStatus } from "../../components/basics/query-status";
import { fetchAuditLogPage } from "../../lib/account/admin-requests";
import { formatDateTime } from "../../lib/ui/date-format";
import { AdminPageFrame } from "./admin-page-frame";

const ACTION_LABELS: Record<AuditLogEntry["action"], () => string> = {
	delete: adminAuditDeleted,
	restore: adminAuditRestored,
	purge: adminAuditPurged,
	disable: adminAuditDisabled,
	enable: adminAuditEnabled,
	"set-quota": adminAuditSetQuota,
	"delete-account": adminAuditDeletedAccount,
	"hide-share": adminAuditHidShare,
	"revoke-share": adminAuditRevokedShare,
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
				<span className="font-medium">{ACTION_LABELS[entry.action]()}</span>
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
	if (!log.data) {
		content = (
			<QueryStatus
				query={log}
				loadingLabel={adminAuditLoading()}
				failureMessage={adminAuditLoadFailed()}
			/>
		);
	} else if (entries.length === 0) {
		content = (
			<p className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-12 text-center text-sm text-slate-600">
				{adminAuditEmpty()}
			</p>
		);
	} else {
		content = (
			<div className="space-y-4">
				<div className="overflow-x-auto rounded-2xl bg-white px-4 shadow-card ring-1 ring-slate-200/80 sm:px-6">
					<DataTable
						className="min-w-[40rem]"
						caption={adminAuditCaption()}
						head={
							<>
								<th scope="col" className="py-3 pr-4">
									{adminAuditWhen()}
								</th>
								<th scope="col" className="py-3 pr-4">
									{adminAuditWho()}
								</th>
								<th scope="col" className="py-3 pr-4">
									{adminAuditWhose()}
								</th>
								<th scope="col" className="py-3">
									{adminColumnWhat()}
								</th>
							</>
						}
					>
						{entries.map((entry) => (
							<EntryRow key={entry.id} entry={entry} />
						))}
					</DataTable>
				</div>
				{log.isFetchNextPageError ? (
					<p role="alert" className="text-center text-sm font-medium text-red-800">
						{adminAuditLoadFailed()}
					</p>
				) : null}
				{log.hasNextPage ? (
					<div className="flex justify-center">
						<Button
							variant="secondary"
							onClick={() => void log.fetchNextPage()}
							isBusy={log.isFetchingNextPage}
						>
							{adminAuditLoadMore()}
						</Button>
					</div>
				) : null}
			</div>
		);
	}

	return (
		<AdminPageFrame
			hasHistoryLink
			icon={<ScrollText aria-hidden="true" className="size-7 text-accent-600" />}
			title={adminNavAuditLog()}
			description={adminAuditDescription()}
		>
			{content}
		</AdminPageFrame>
	);
}
