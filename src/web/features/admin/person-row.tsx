import type { Person } from "../../../shared/admin/people";
import {
	adminNever,
	adminPersonActive,
	adminPersonDisabled,
	adminPersonYou,
	adminQuotaAtOnce,
	adminQuotaNoDailyLimit,
	adminQuotaPerDay,
	adminQuotaSummary,
} from "../../../shared/i18n/messages";
import { NUMERIC_CELL_CLASS_NAME } from "../../components/basics/data-table";
import { formatDay } from "../../lib/ui/date-format";
import { formatBytes, formatCount, formatMoney } from "../../lib/ui/number-format";
import { type PendingPersonAction, PersonActionsMenu } from "./person-actions-menu";

/** A daily limit in words: 0 is none. The quota dialog says the defaults the same way. */
export function describeDaily(daily: number): string {
	return daily === 0 ? adminQuotaNoDailyLimit() : adminQuotaPerDay({ count: daily });
}

function describeQuota(person: Person): string | null {
	const parts: string[] = [];
	if (person.quota.maxActive !== null) {
		parts.push(adminQuotaAtOnce({ count: person.quota.maxActive }));
	}
	if (person.quota.daily !== null) parts.push(describeDaily(person.quota.daily));
	return parts.length > 0 ? adminQuotaSummary({ limits: parts.join(", ") }) : null;
}

/** One person's row in the People table: who, their usage, their status and their menu. */
export function PersonRow({
	person,
	onAction,
	onQuota,
}: {
	person: Person;
	onAction: (pending: PendingPersonAction, trigger: HTMLElement | null) => void;
	onQuota: (person: Person, trigger: HTMLElement | null) => void;
}) {
	const quota = describeQuota(person);
	return (
		<tr className="align-top">
			<td className="py-3 pr-3 text-sm">
				<span className="font-medium break-all text-slate-900">{person.email}</span>
				{person.isAdmin ? (
					<span className="ml-2 text-xs text-accent-700">{adminPersonYou()}</span>
				) : null}
				{quota ? <span className="mt-0.5 block text-xs text-slate-600">{quota}</span> : null}
			</td>
			<td className="py-3 pr-3 text-sm whitespace-nowrap text-slate-700">
				<time dateTime={person.signedUpAt}>{formatDay(person.signedUpAt)}</time>
			</td>
			<td className="py-3 pr-3 text-sm whitespace-nowrap text-slate-700">
				{person.lastActiveAt ? (
					<time dateTime={person.lastActiveAt}>{formatDay(person.lastActiveAt)}</time>
				) : (
					adminNever()
				)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.generations)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.generationsThisMonth)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.images)}
			</td>
			<td
				className={`py-3 pr-3 text-sm whitespace-nowrap text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}
			>
				{formatBytes(person.imageBytes)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatMoney(person.spend)}
			</td>
			<td className="py-3 pr-3 text-sm">
				{person.status === "active" ? (
					<span className="text-emerald-800">{adminPersonActive()}</span>
				) : (
					<span className="font-medium text-red-800">{adminPersonDisabled()}</span>
				)}
			</td>
			<td className="py-1.5 text-right">
				<PersonActionsMenu person={person} onAction={onAction} onQuota={onQuota} />
			</td>
		</tr>
	);
}
