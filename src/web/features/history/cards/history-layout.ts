/**
 * Where every day group and card of the history sits, computed rather than laid out by the browser,
 * so that only the cards near the viewport need to exist in the page (see history-list.tsx). Every
 * card of the history has the same height, so a group is its heading plus rows of equal cards.
 */

export type HistoryMetrics = {
	columns: number;
	/** Space between cards, across and down, in pixels. */
	gap: number;
	rowHeight: number;
	/** The day heading's height, including its space below. */
	headerHeight: number;
	/** Space between two day groups. */
	groupGap: number;
};

export type GroupBlock = {
	top: number;
	height: number;
	rowCount: number;
	itemCount: number;
};

type HistoryLayout = {
	metrics: HistoryMetrics;
	blocks: GroupBlock[];
	totalHeight: number;
};

/** The rows of one group that meet a vertical range; `lastRow < firstRow` when none do. */
export type VisibleGroup = { groupIndex: number; firstRow: number; lastRow: number };

export type ItemPosition = { groupIndex: number; itemIndex: number };

const WIDE_MIN_WIDTH = 880;
const MEDIUM_MIN_WIDTH = 540;

/** How many cards fit across: three on a laptop, two on a tablet, one on a phone. */
export function chooseColumns(width: number): number {
	if (width >= WIDE_MIN_WIDTH) return 3;
	if (width >= MEDIUM_MIN_WIDTH) return 2;
	return 1;
}

export function chooseGap(width: number): number {
	return width >= MEDIUM_MIN_WIDTH ? 20 : 16;
}

export function computeCardWidth(width: number, columns: number, gap: number): number {
	return Math.max(0, (width - gap * (columns - 1)) / columns);
}

export function computeHistoryLayout(
	itemCounts: readonly number[],
	metrics: HistoryMetrics,
): HistoryLayout {
	const blocks: GroupBlock[] = [];
	let top = 0;
	for (const itemCount of itemCounts) {
		const rowCount = Math.ceil(itemCount / metrics.columns);
		const rowsHeight =
			rowCount > 0 ? rowCount * metrics.rowHeight + (rowCount - 1) * metrics.gap : 0;
		const height = metrics.headerHeight + rowsHeight;
		blocks.push({ top, height, rowCount, itemCount });
		top += height + metrics.groupGap;
	}
	const last = blocks.at(-1);
	return { metrics, blocks, totalHeight: last ? last.top + last.height : 0 };
}

/** The top of row `row` of a group, from the group's top. */
export function findRowTop(metrics: HistoryMetrics, row: number): number {
	return metrics.headerHeight + row * (metrics.rowHeight + metrics.gap);
}

/** The first group whose bottom is below `y` (binary search: groups are in order). */
function findFirstGroupBelow(layout: HistoryLayout, y: number): number {
	let low = 0;
	let high = layout.blocks.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		const block = layout.blocks[middle];
		if (block && block.top + block.height <= y) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The groups, and their rows, that meet the range from `top` to `bottom` (list coordinates). */
export function findVisibleGroups(
	layout: HistoryLayout,
	top: number,
	bottom: number,
): VisibleGroup[] {
	const { metrics } = layout;
	const pitch = metrics.rowHeight + metrics.gap;
	const visible: VisibleGroup[] = [];
	for (let groupIndex = findFirstGroupBelow(layout, top); ; groupIndex++) {
		const block = layout.blocks[groupIndex];
		if (!block || block.top >= bottom) break;
		const localTop = top - block.top - metrics.headerHeight;
		const localBottom = bottom - block.top - metrics.headerHeight;
		const firstRow = Math.max(0, Math.floor((localTop - metrics.rowHeight) / pitch) + 1);
		const lastRow = Math.min(block.rowCount - 1, Math.ceil(localBottom / pitch) - 1);
		visible.push({ groupIndex, firstRow, lastRow });
	}
	return visible;
}

/** The top of an item's card, in list coordinates. */
export function findItemTop(layout: HistoryLayout, position: ItemPosition): number | undefined {
	const block = layout.blocks[position.groupIndex];
	if (!block) return undefined;
	const row = Math.floor(position.itemIndex / layout.metrics.columns);
	return block.top + findRowTop(layout.metrics, row);
}

/** The first item whose card reaches below `y`: the one a person looking at `y` sees first. */
export function findItemAt(layout: HistoryLayout, y: number): ItemPosition | undefined {
	const { metrics } = layout;
	for (let groupIndex = findFirstGroupBelow(layout, y); ; groupIndex++) {
		const block = layout.blocks[groupIndex];
		if (!block) return undefined;
		if (block.itemCount === 0) continue;
		const localY = y - block.top - metrics.headerHeight;
		const pitch = metrics.rowHeight + metrics.gap;
		const row = Math.max(0, Math.floor((localY - metrics.rowHeight) / pitch) + 1);
		if (row < block.rowCount) return { groupIndex, itemIndex: row * metrics.columns };
	}
}
