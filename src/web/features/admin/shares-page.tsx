import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { EyeOff, Link2 } from "lucide-react";
import { type AdminShare, describeShareTarget } from "../../../shared/history/sharing";
import {
	adminActions,
	adminColumnCreated,
	adminColumnExpires,
	adminColumnOwner,
	adminColumnState,
	adminColumnViews,
	adminColumnWhat,
	adminNavShares,
	adminNever,
	adminShareExpired,
	adminShareHidden,
	adminShareHide,
	adminShareHideLabel,
	adminShareLive,
	adminShareRevoke,
	adminShareRevoked,
	adminShareRevokeLabel,
	adminSharesCaption,
	adminSharesDescription,
	adminSharesEveryLink,
	adminSharesLoadingLinks,
	adminSharesLoadingReports,
	adminSharesNone,
	adminSharesNoReports,
	adminSharesReports,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { DataTable, NUMERIC_CELL_CLASS_NAME } from "../../components/basics/data-table";
import { Spinner } from "../../components/basics/spinner";
import {
	hideShare,
	listAllShares,
	listShareReports,
	revokeAnyShare,
} from "../../lib/collections/share-requests";
import { formatDateTime } from "../../lib/ui/date-format";
import { formatCount } from "../../lib/ui/number-format";
import { AdminPageFrame } from "./admin-page-frame";

const SHARES_KEY = ["admin", "shares"] as const;
const REPORTS_KEY = ["admin", "reports"] as const;

const STATE_LABELS: Record<AdminShare["state"], () => string> = {
	live: adminShareLive,
	expired: adminShareExpired,
	revoked: adminShareRevoked,
	hidden: adminShareHidden,
};

/** Hide and Revoke for a link that is still live; nothing once it has ended. */
function ShareActions({
	share,
	onHide,
	onRevoke,
	isBusy,
}: {
	share: AdminShare;
	onHide: (share: AdminShare) => void;
	onRevoke: (share: AdminShare) => void;
	isBusy: boolean;
}) {
	if (share.state === "hidden" || share.state === "revoked") return null;
	const label = describeShareTarget(share);
	return (
		<div className="flex flex-wrap gap-2">
			<Button
				variant="secondary"
				size="sm"
				disabled={isBusy}
				aria-label={adminShareHideLabel({ target: label })}
				onClick={() => onHide(share)}
			>
				<EyeOff aria-hidden="true" className="size-4" />
				{adminShareHide()}
			</Button>
			<Button
				variant="secondary"
				size="sm"
				disabled={isBusy}
				aria-label={adminShareRevokeLabel({ target: label })}
				onClick={() => onRevoke(share)}
			>
				{adminShareRevoke()}
			</Button>
		</div>
	);
}

/**
 * The administrator's shared links: the reports queue, each with its link, and everyone's links;
 * Hide (the page says it was taken down) and Revoke, each written to the audit log.
 */
export function SharesPage() {
	const queryClient = useQueryClient();
	const shares = useQuery({ queryKey: SHARES_KEY, queryFn: ({ signal }) => listAllShares(signal) });
	const reports = useQuery({
		queryKey: REPORTS_KEY,
		queryFn: ({ signal }) => listShareReports(signal),
	});
	const refresh = async () => {
		await queryClient.invalidateQueries({ queryKey: SHARES_KEY });
		await queryClient.invalidateQueries({ queryKey: REPORTS_KEY });
	};
	const hide = useMutation({ mutationFn: hideShare, onSuccess: refresh });
	const revoke = useMutation({ mutationFn: revokeAnyShare, onSuccess: refresh });
	const isBusy = hide.isPending || revoke.isPending;
	const actions = {
		onHide: (share: AdminShare) => hide.mutate(share.id),
		onRevoke: (share: AdminShare) => revoke.mutate(share.id),
		isBusy,
	};
	return (
		<AdminPageFrame
			icon={<Link2 aria-hidden="true" className="size-7 text-accent-700" />}
			title={adminNavShares()}
			description={adminSharesDescription()}
		>
			<AlertMessage message={hide.error?.message ?? revoke.error?.message ?? null} />
			<section aria-labelledby="reports-heading" className="space-y-3">
				<h2 id="reports-heading" className="text-lg font-semibold text-slate-900">
					{adminSharesReports()}
				</h2>
				{reports.isPending ? (
					<Spinner label={adminSharesLoadingReports()} />
				) : reports.isError ? (
					<AlertMessage message={reports.error.message} />
				) : reports.data.length === 0 ? (
					<p className="text-sm text-slate-600">{adminSharesNoReports()}</p>
				) : (
					<ul className="divide-y divide-slate-200" aria-label={adminSharesReports()}>
						{reports.data.map((report) => (
							<li key={report.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
								<div className="min-w-0 text-sm">
									<p className="font-medium break-words text-slate-900">“{report.reason}”</p>
									<p className="mt-1 break-words text-slate-600">
										{formatDateTime(report.createdAt)} · {describeShareTarget(report.share)} ·{" "}
										{report.share.ownerEmail} · {STATE_LABELS[report.share.state]()}
									</p>
								</div>
								<ShareActions share={report.share} {...actions} />
							</li>
						))}
					</ul>
				)}
			</section>
			<section aria-labelledby="links-heading" className="space-y-3">
				<h2 id="links-heading" className="text-lg font-semibold text-slate-900">
					{adminSharesEveryLink()}
				</h2>
				{shares.isPending ? (
					<Spinner label={adminSharesLoadingLinks()} />
				) : shares.isError ? (
					<AlertMessage message={shares.error.message} />
				) : shares.data.length === 0 ? (
					<p className="text-sm text-slate-600">{adminSharesNone()}</p>
				) : (
					<div className="overflow-x-auto">
						<DataTable
							caption={adminSharesCaption()}
							className="text-sm"
							head={
								<>
									<th className="py-2 pr-3">{adminColumnWhat()}</th>
									<th className="py-2 pr-3">{adminColumnOwner()}</th>
									<th className="py-2 pr-3">{adminColumnCreated()}</th>
									<th className="py-2 pr-3">{adminColumnExpires()}</th>
									<th className={`py-2 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>{adminColumnViews()}</th>
									<th className={`py-2 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>{adminSharesReports()}</th>
									<th className="py-2 pr-3">{adminColumnState()}</th>
									<th className="py-2">
										<span className="sr-only">{adminActions()}</span>
									</th>
								</>
							}
						>
							{shares.data.map((share) => (
								<tr key={share.id} className="align-top text-slate-800">
									<td className="max-w-sm py-2 pr-3 break-words">{describeShareTarget(share)}</td>
									<td className="py-2 pr-3 break-all">{share.ownerEmail}</td>
									<td className="py-2 pr-3">{formatDateTime(share.createdAt)}</td>
									<td className="py-2 pr-3">
										{share.expiresAt ? formatDateTime(share.expiresAt) : adminNever()}
									</td>
									<td className={`py-2 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>
										{formatCount(share.views)}
									</td>
									<td className={`py-2 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>
										{formatCount(share.reports)}
									</td>
									<td className="py-2 pr-3">{STATE_LABELS[share.state]()}</td>
									<td className="py-2">
										<ShareActions share={share} {...actions} />
									</td>
								</tr>
							))}
						</DataTable>
					</div>
				)}
			</section>
		</AdminPageFrame>
	);
}
