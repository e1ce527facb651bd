import {
	type RefObject,
	useCallback,
	useEffect,
	useLayoutEffect,
	useMemo,
	useRef,
	useState,
} from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { DateGroup } from "../../../../shared/history/date-groups";
import { DateGroupSection } from "./date-group-section";
import type { GenerationCardActions } from "./generation-card";
import {
	chooseColumns,
	chooseGap,
	computeCardWidth,
	computeHistoryLayout,
	findItemAt,
	findItemTop,
	findVisibleGroups,
	type HistoryMetrics,
	type ItemPosition,
	type VisibleGroup,
} from "./history-layout";

// Cards are drawn this far beyond the viewport (at least a screen), so a fast scroll meets drawn
// cards and their thumbnails start loading before they show.
const MIN_OVERSCAN_PX = 800;
const GROUP_GAP_PX = 32;
// Until a card has been measured: the card's text, meta line and buttons below its square images.
const ESTIMATED_FOOTER_PX = { user: 162, admin: 186 } as const;
const ESTIMATED_HEADER_PX = 48;

type Range = { top: number; bottom: number };
const EVERYTHING: Range = { top: Number.NEGATIVE_INFINITY, bottom: Number.POSITIVE_INFINITY };

type Anchor = { id: string; groupKey: string; itemIndex: number; offset: number };

type HistoryListProps = {
	groups: DateGroup<Generation>[];
	isOwnerShown: boolean;
	actions: GenerationCardActions;
	containerRef: RefObject<HTMLDivElement | null>;
};

function describeVisible(visible: readonly VisibleGroup[]): string {
	return visible.map((group) => `${group.groupIndex}:${group.firstRow}-${group.lastRow}`).join(",");
}

/**
 * The history's day groups, windowed: the list keeps the full height of every loaded card, but
 * only the rows within about a screen of the viewport are in the page. A browser that lays out
 * thousands of cards (tens of thousands of elements) misses frames while scrolling, even with
 * content-visibility (bench/history-browser.ts measured it); this keeps the page the same size
 * at any length. It also holds the first card in view in place when cards above it come or go.
 */
export function HistoryList({ groups, isOwnerShown, actions, containerRef }: HistoryListProps) {
	// Null until measured: nothing is drawn before the width is known, so a long cached history
	// never renders all its cards for one frame.
	const [width, setWidth] = useState<number | null>(null);
	const [measured, setMeasured] = useState<{
		footer: number;
		header: number;
		width: number;
	} | null>(null);
	const [range, setRange] = useState<Range | null>(null);

	const metrics = useMemo<HistoryMetrics>(() => {
		const listWidth = width ?? 0;
		const columns = chooseColumns(listWidth);
		const gap = chooseGap(listWidth);
		const footer = measured?.footer ?? ESTIMATED_FOOTER_PX[isOwnerShown ? "admin" : "user"];
		return {
			columns,
			gap,
			rowHeight: computeCardWidth(listWidth, columns, gap) + footer,
			headerHeight: measured?.header ?? ESTIMATED_HEADER_PX,
			groupGap: GROUP_GAP_PX,
		};
	}, [width, measured, isOwnerShown]);
	const layout = useMemo(
		() =>
			computeHistoryLayout(
				groups.map((group) => group.items.length),
				metrics,
			),
		[groups, metrics],
	);
	const positions = useMemo(() => {
		const byId = new Map<string, ItemPosition>();
		for (const [groupIndex, group] of groups.entries()) {
			for (const [itemIndex, item] of group.items.entries()) {
				byId.set(item.id, { groupIndex, itemIndex });
			}
		}
		return byId;
	}, [groups]);

	// The scroll handler reads the latest of these without re-subscribing; kept up to date first
	// thing after each render, before the effects below use them.
	const current = useRef({ layout, groups, range });
	useLayoutEffect(() => {
		current.current = { layout, groups, range };
	});
	const anchorRef = useRef<Anchor | null>(null);
	// Where the list starts in the document; kept so that a scroll needs no layout to be read.
	const offsetRef = useRef(0);
	const readOffset = useCallback(() => {
		const container = containerRef.current;
		if (container) offsetRef.current = container.getBoundingClientRect().top + window.scrollY;
	}, [containerRef]);

	/** Works out which rows to draw and which card is first in view; renders only on a change. */
	const update = useCallback(() => {
		const container = containerRef.current;
		if (!container) return;
		const { layout: latest, groups: latestGroups, range: drawn } = current.current;
		const viewTop = window.scrollY - offsetRef.current;
		const viewHeight = window.innerHeight;

		const first = viewTop > 0 ? findItemAt(latest, viewTop) : undefined;
		const firstGroup = first ? latestGroups[first.groupIndex] : undefined;
		const firstItem = first ? firstGroup?.items[first.itemIndex] : undefined;
		const firstTop = first ? findItemTop(latest, first) : undefined;
		anchorRef.current =
			first && firstGroup && firstItem && firstTop !== undefined
				? {
						id: firstItem.id,
						groupKey: firstGroup.key,
						itemIndex: first.itemIndex,
						offset: firstTop - viewTop,
					}
				: null;

		// No width means no layout (a test's DOM, a hidden page): draw everything.
		const overscan = Math.max(MIN_OVERSCAN_PX, viewHeight);
		const next =
			container.clientWidth === 0
				? EVERYTHING
				: { top: viewTop - overscan, bottom: viewTop + viewHeight + overscan };
		const isSame =
			drawn !== null &&
			describeVisible(findVisibleGroups(latest, next.top, next.bottom)) ===
				describeVisible(findVisibleGroups(latest, drawn.top, drawn.bottom));
		if (!isSame) setRange(next);
	}, [containerRef]);

	useEffect(() => {
		const container = containerRef.current;
		if (!container) return;
		const observer =
			typeof ResizeObserver === "undefined"
				? undefined
				: new ResizeObserver(() => setWidth(container.clientWidth));
		observer?.observe(container);
		const onResize = () => {
			readOffset();
			update();
		};
		window.addEventListener("scroll", update, { passive: true });
		window.addEventListener("resize", onResize, { passive: true });
		return () => {
			observer?.disconnect();
			window.removeEventListener("scroll", update);
			window.removeEventListener("resize", onResize);
		};
	}, [containerRef, update, readOffset]);

	// Before paint: the width, then (once per width) the real height of a card and of a heading.
	// Measuring forces a layout, so it is not repeated on every render while scrolling.
	useLayoutEffect(() => {
		const container = containerRef.current;
		if (!container) return;
		if (width === null) {
			setWidth(container.clientWidth);
			return;
		}
		if (measured?.width === width) return;
		let footer = 0;
		for (const card of container.querySelectorAll("article")) {
			const box = card.getBoundingClientRect();
			footer = Math.max(footer, box.height - box.width);
		}
		const header = container.querySelector("[data-history-header]")?.getBoundingClientRect().height;
		if (footer > 0 && header) setMeasured({ footer, header, width });
	});

	// When the layout changes (a page arrives, a card is deleted, a new one comes first, the width
	// changes), keep the card that was first in view where it was, then redraw the right rows.
	useLayoutEffect(() => {
		readOffset();
		const anchor = anchorRef.current;
		if (anchor) {
			let position = positions.get(anchor.id);
			if (!position) {
				// Deleted: the card that took its place stands in.
				const groupIndex = groups.findIndex((group) => group.key === anchor.groupKey);
				const group = groups[groupIndex];
				if (group && group.items.length > 0) {
					position = { groupIndex, itemIndex: Math.min(anchor.itemIndex, group.items.length - 1) };
				}
			}
			const top = position ? findItemTop(layout, position) : undefined;
			if (top !== undefined) {
				const viewTop = window.scrollY - offsetRef.current;
				const shift = top - anchor.offset - viewTop;
				if (Math.abs(shift) >= 1) window.scrollBy(0, shift);
			}
		}
		update();
	}, [layout, positions, groups, readOffset, update]);

	const visible = range && width !== null ? findVisibleGroups(layout, range.top, range.bottom) : [];
	return (
		<div
			ref={containerRef}
			className="relative [overflow-anchor:none]"
			style={{ height: layout.totalHeight }}
		>
			{visible.map(({ groupIndex, firstRow, lastRow }) => {
				const group = groups[groupIndex];
				const block = layout.blocks[groupIndex];
				if (!group || !block) return null;
				return (
					<DateGroupSection
						key={group.key}
						group={group}
						block={block}
						metrics={metrics}
						firstRow={firstRow}
						lastRow={lastRow}
						isOwnerShown={isOwnerShown}
						actions={actions}
					/>
				);
			})}
		</div>
	);
}
