// The People table's columns (what each shows and sorts by) and their sort headers, for
// people-page.tsx.
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { PeopleSortKey, SortOrder } from "../../../shared/admin/people";
import {
	adminColumnGenerations,
	adminColumnImages,
	adminColumnLastActive,
	adminColumnPerson,
	adminColumnSignedUp,
	adminColumnSpend,
	adminColumnStatus,
	adminColumnStored,
	adminColumnThisMonth,
	adminSortGenerations,
	adminSortImages,
	adminSortLastActive,
	adminSortPerson,
	adminSortSignedUp,
	adminSortSpend,
	adminSortStatus,
	adminSortStored,
	adminSortThisMonth,
} from "../../../shared/i18n/messages";

export type Column = {
	key: PeopleSortKey;
	label: () => string;
	/** The column's name inside the table's caption ("sorted by last active"). */
	sortName: () => string;
	/** Numbers read best right-aligned, and most wanted largest first. */
	isNumeric: boolean;
};

export const COLUMNS: readonly Column[] = [
	{ key: "email", label: adminColumnPerson, sortName: adminSortPerson, isNumeric: false },
	{ key: "signedUp", label: adminColumnSignedUp, sortName: adminSortSignedUp, isNumeric: false },
	{
		key: "lastActive",
		label: adminColumnLastActive,
		sortName: adminSortLastActive,
		isNumeric: false,
	},
	{
		key: "generations",
		label: adminColumnGenerations,
		sortName: adminSortGenerations,
		isNumeric: true,
	},
	{
		key: "generationsThisMonth",
		label: adminColumnThisMonth,
		sortName: adminSortThisMonth,
		isNumeric: true,
	},
	{ key: "images", label: adminColumnImages, sortName: adminSortImages, isNumeric: true },
	{ key: "bytes", label: adminColumnStored, sortName: adminSortStored, isNumeric: true },
	{ key: "spend", label: adminColumnSpend, sortName: adminSortSpend, isNumeric: true },
	{ key: "status", label: adminColumnStatus, sortName: adminSortStatus, isNumeric: false },
];

/** A column's header: its name as a button that sorts by it, with the order shown and said. */
export function SortHeader({
	column,
	sort,
	order,
	onSort,
}: {
	column: Column;
	sort: PeopleSortKey;
	order: SortOrder;
	onSort: (key: PeopleSortKey) => void;
}) {
	const isSorted = column.key === sort;
	let icon = <ArrowUpDown aria-hidden="true" className="size-3.5 text-slate-400" />;
	if (isSorted && order === "asc") icon = <ArrowUp aria-hidden="true" className="size-3.5" />;
	if (isSorted && order === "desc") icon = <ArrowDown aria-hidden="true" className="size-3.5" />;
	return (
		<th
			scope="col"
			aria-sort={isSorted ? (order === "asc" ? "ascending" : "descending") : "none"}
			className={`py-2 pr-3 whitespace-nowrap ${column.isNumeric ? "text-right" : ""}`}
		>
			<button
				type="button"
				onClick={() => onSort(column.key)}
				className="inline-flex cursor-pointer items-center gap-1 rounded font-semibold tracking-wide uppercase hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-accent-600 focus-visible:outline-none"
			>
				{column.label()}
				{icon}
			</button>
		</th>
	);
}
