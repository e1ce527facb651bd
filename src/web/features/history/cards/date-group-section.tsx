import { CalendarDays } from "lucide-react";
import { memo, useId } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { DateGroup } from "../../../../shared/history/date-groups";
import { GenerationCard, type GenerationCardActions } from "./generation-card";
import { findRowTop, type GroupBlock, type HistoryMetrics } from "./history-layout";

/**
 * The grid of the loading skeletons, in CSS: the columns chooseColumns gives the list, at the
 * viewport widths where the page's padding leaves the list 540 and 880 pixels.
 */
export const CARD_GRID_CLASS_NAME =
	"grid grid-cols-1 gap-4 min-[572px]:grid-cols-2 min-[572px]:gap-5 min-[928px]:grid-cols-3";

type DateGroupSectionProps = {
	group: DateGroup<Generation>;
	block: GroupBlock;
	metrics: HistoryMetrics;
	/** The rows to draw; the others are only space. */
	firstRow: number;
	lastRow: number;
	isOwnerShown: boolean;
	actions: GenerationCardActions;
};

/**
 * One day of the history: its date as a sticky heading over the full height of the day, and the
 * cards of the rows near the viewport, each placed where the layout says.
 */
export const DateGroupSection = memo(function DateGroupSection({
	group,
	block,
	metrics,
	firstRow,
	lastRow,
	isOwnerShown,
	actions,
}: DateGroupSectionProps) {
	const headingId = useId();
	const { columns, gap } = metrics;
	const cardWidth = `calc((100% - ${gap * (columns - 1)}px) / ${columns})`;
	const cards = group.items.slice(firstRow * columns, (lastRow + 1) * columns);
	return (
		<section
			aria-labelledby={headingId}
			className="absolute inset-x-0"
			style={{ top: block.top, height: block.height }}
		>
			<div data-history-header className="pointer-events-none sticky top-16 z-raised pt-1 pb-3">
				<h2
					id={headingId}
					className="pointer-events-auto inline-flex items-center gap-2 rounded-full bg-white/95 px-3 py-1.5 text-sm/5 font-semibold text-slate-800 shadow-sm ring-1 ring-slate-200"
				>
					<CalendarDays aria-hidden="true" className="size-4 text-accent-600" />
					{group.label}
				</h2>
			</div>
			<ul className="absolute inset-x-0" style={{ top: metrics.headerHeight, bottom: 0 }}>
				{cards.map((generation, index) => {
					const itemIndex = firstRow * columns + index;
					const column = itemIndex % columns;
					return (
						<li
							key={generation.id}
							aria-setsize={group.items.length}
							aria-posinset={itemIndex + 1}
							// Cards drawn ahead of the viewport skip style, layout and paint until they come near
							// (content-visibility), so a row that appears costs little at once.
							className="absolute [content-visibility:auto]"
							style={{
								top: findRowTop(metrics, Math.floor(itemIndex / columns)) - metrics.headerHeight,
								left: `calc(${column} * (${cardWidth} + ${gap}px))`,
								width: cardWidth,
								containIntrinsicSize: `auto ${Math.round(metrics.rowHeight)}px`,
							}}
						>
							<GenerationCard
								generation={generation}
								isOwnerShown={isOwnerShown}
								actions={actions}
							/>
						</li>
					);
				})}
			</ul>
		</section>
	);
});
