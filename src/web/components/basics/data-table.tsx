import type { ReactNode } from "react";
import { joinClassNames } from "../../lib/ui/class-names";

type DataTableProps = {
	/** Read by screen readers only. */
	caption: ReactNode;
	/** The header row's cells. */
	head: ReactNode;
	children: ReactNode;
	/** The table's own classes: its width, its text size. */
	className?: string;
};

/** A table of figures, its header row in small capitals and its rows ruled. */
export function DataTable({ caption, head, children, className }: DataTableProps) {
	return (
		<table className={joinClassNames("w-full border-collapse text-left", className)}>
			<caption className="sr-only">{caption}</caption>
			<thead>
				<tr className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-600 uppercase">
					{head}
				</tr>
			</thead>
			<tbody className="divide-y divide-slate-100">{children}</tbody>
		</table>
	);
}

/** The classes of a cell that holds a figure: set right, its digits of one width. */
export const NUMERIC_CELL_CLASS_NAME = "text-right tabular-nums";
