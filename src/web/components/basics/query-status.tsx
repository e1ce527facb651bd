import { RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { historyTryAgain } from "../../../shared/i18n/messages";
import { Button } from "./button";
import { Spinner } from "./spinner";

type WaitedQuery = {
	isPending: boolean;
	isFetching: boolean;
	refetch: () => Promise<unknown>;
};

type QueryStatusProps = {
	query: WaitedQuery;
	/** Announced while the query loads, like "Loading the audit log". */
	loadingLabel: string;
	/**
	 * What stands in for the screen while it loads, announcing `loadingLabel` itself (the history's
	 * placeholder cards); the spinner by default.
	 */
	loading?: ReactNode;
	/** Said when it failed, above Try Again. */
	failureMessage: string;
};

/**
 * What a screen shows while its query has no data: the spinner (or its own placeholder) while it
 * loads, else its failure with Try Again, which asks again.
 */
export function QueryStatus({ query, loadingLabel, loading, failureMessage }: QueryStatusProps) {
	if (query.isPending) {
		if (loading) return loading;
		return (
			<p className="flex justify-center py-16 text-accent-600">
				<Spinner size="lg" label={loadingLabel} />
			</p>
		);
	}
	return (
		<div
			role="alert"
			className="flex flex-col items-center gap-4 rounded-2xl bg-white/80 px-6 py-12 text-center shadow-card ring-1 ring-red-200 ring-inset"
		>
			<p className="font-medium text-red-800">{failureMessage}</p>
			<Button variant="secondary" onClick={() => void query.refetch()} isBusy={query.isFetching}>
				{query.isFetching ? null : <RotateCw aria-hidden="true" className="size-4" />}
				{historyTryAgain()}
			</Button>
		</div>
	);
}
