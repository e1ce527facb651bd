import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link2Off, RefreshCw } from "lucide-react";
import { useState } from "react";
import {
	type CreatedShare,
	describeShareTarget,
	type Share,
} from "../../../shared/history/sharing";
import {
	accountCreatedOn,
	accountExpiresOn,
	accountNeverExpires,
	accountRevoke,
	accountSharesDescription,
	accountSharesEnded,
	accountSharesExpired,
	accountSharesList,
	accountSharesLive,
	accountSharesLoading,
	accountSharesNewLink,
	accountSharesNone,
	accountSharesOriginals,
	accountSharesPromptHidden,
	accountSharesPromptShown,
	accountSharesTakenDown,
	accountSharesTitle,
	accountSharesViews,
	accountSharesViewsLast,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Badge } from "../../components/basics/badge";
import { Button } from "../../components/basics/button";
import { Spinner } from "../../components/basics/spinner";
import { ShareLinkField } from "../../components/images/share-link-field";
import { listShares, revokeShare, rotateShare } from "../../lib/collections/share-requests";
import { formatDateTime } from "../../lib/ui/date-format";
import { Section } from "./account-section";

const SHARES_QUERY_KEY = ["account", "shares"] as const;

const STATE_LABELS: Record<Share["state"], () => string> = {
	live: accountSharesLive,
	expired: accountSharesExpired,
	revoked: accountSharesEnded,
	hidden: accountSharesTakenDown,
};

function ShareRow({
	share,
	onRevoke,
	onRotate,
	isBusy,
}: {
	share: Share;
	onRevoke: () => void;
	onRotate: () => void;
	isBusy: boolean;
}) {
	const isLive = share.state === "live";
	return (
		<li className="flex flex-wrap items-start justify-between gap-3 py-3">
			<div className="min-w-0">
				<p className="text-sm font-medium break-words text-slate-900">
					{describeShareTarget(share)}
				</p>
				<div className="mt-1 flex flex-wrap gap-1">
					<Badge>{STATE_LABELS[share.state]()}</Badge>
					<Badge>
						{share.showPrompt ? accountSharesPromptShown() : accountSharesPromptHidden()}
					</Badge>
					{share.originals ? <Badge>{accountSharesOriginals()}</Badge> : null}
				</div>
				<p className="mt-1 text-xs text-slate-600">
					{accountCreatedOn({ date: formatDateTime(share.createdAt) })} ·{" "}
					{share.expiresAt
						? accountExpiresOn({ date: formatDateTime(share.expiresAt) })
						: accountNeverExpires()}{" "}
					·{" "}
					{share.lastViewedAt
						? accountSharesViewsLast({
								count: share.views,
								date: formatDateTime(share.lastViewedAt),
							})
						: accountSharesViews({ count: share.views })}
				</p>
			</div>
			{isLive ? (
				<div className="flex gap-2">
					<Button variant="secondary" size="sm" disabled={isBusy} onClick={onRotate}>
						<RefreshCw aria-hidden="true" className="size-4" />
						{accountSharesNewLink()}
					</Button>
					<Button variant="secondary" size="sm" disabled={isBusy} onClick={onRevoke}>
						<Link2Off aria-hidden="true" className="size-4" />
						{accountRevoke()}
					</Button>
				</div>
			) : null}
		</li>
	);
}

/** The account's shared links: what each shows, its dates and views; Revoke and New link. */
export function SharedLinksSection() {
	const queryClient = useQueryClient();
	const shares = useQuery({
		queryKey: SHARES_QUERY_KEY,
		queryFn: ({ signal }) => listShares(signal),
	});
	const [renewed, setRenewed] = useState<CreatedShare | null>(null);
	const refresh = () => queryClient.invalidateQueries({ queryKey: SHARES_QUERY_KEY });
	const revoke = useMutation({ mutationFn: revokeShare, onSuccess: refresh });
	const rotate = useMutation({
		mutationFn: rotateShare,
		onSuccess: async (created) => {
			setRenewed(created);
			await refresh();
		},
	});
	const isBusy = revoke.isPending || rotate.isPending;
	return (
		<Section title={accountSharesTitle()} description={accountSharesDescription()}>
			{renewed ? (
				<div className="mb-3">
					<ShareLinkField url={renewed.url} />
				</div>
			) : null}
			<AlertMessage message={revoke.error?.message ?? rotate.error?.message ?? null} />
			{shares.isPending ? (
				<Spinner label={accountSharesLoading()} />
			) : shares.isError ? (
				<AlertMessage message={shares.error.message} />
			) : shares.data.length === 0 ? (
				<p className="text-sm text-slate-600">{accountSharesNone()}</p>
			) : (
				<ul className="divide-y divide-slate-200" aria-label={accountSharesList()}>
					{shares.data.map((share) => (
						<ShareRow
							key={share.id}
							share={share}
							isBusy={isBusy}
							onRevoke={() => revoke.mutate(share.id)}
							onRotate={() => rotate.mutate(share.id)}
						/>
					))}
				</ul>
			)}
		</Section>
	);
}
