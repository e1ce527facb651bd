import { describe, expect, it } from "vitest";
import {
	chooseColumns,
	chooseGap,
	computeCardWidth,
	computeHistoryLayout,
	findItemAt,
	findItemTop,
	findVisibleGroups,
	type HistoryMetrics,
} from "./history-layout";

// Round numbers: rows 100 tall with 10 between, headings 40, groups 30 apart, three columns.
const METRICS: HistoryMetrics = {
	columns: 3,
	gap: 10,
	rowHeight: 100,
	headerHeight: 40,
	groupGap: 30,
};

describe("chooseColumns and chooseGap", () => {
	it("fits three cards on a laptop, two on a tablet, one on a phone", () => {
		expect(chooseColumns(1088)).toBe(3);
		expect(chooseColumns(880)).toBe(3);
		expect(chooseColumns(879)).toBe(2);
		expect(chooseColumns(540)).toBe(2);
		expect(chooseColumns(328)).toBe(1);
		expect(chooseColumns(0)).toBe(1);
		expect(chooseGap(328)).toBe(16);
		expect(chooseGap(1088)).toBe(20);
	});

	it("shares the width between the columns and their gaps", () => {
		expect(computeCardWidth(1000, 3, 20)).toBeCloseTo(320);
		expect(computeCardWidth(328, 1, 16)).toBe(328);
		expect(computeCardWidth(0, 1, 16)).toBe(0);
	});
});

describe("computeHistoryLayout", () => {
	it("stacks each day's heading and rows, with space between days", () => {
		const layout = computeHistoryLayout([4, 3, 1], METRICS);

		expect(layout.blocks).toEqual([
			// Two rows: 40 + 100 + 10 + 100.
			{ top: 0, height: 250, rowCount: 2, itemCount: 4 },
			{ top: 280, height: 140, rowCount: 1, itemCount: 3 },
			{ top: 450, height: 140, rowCount: 1, itemCount: 1 },
		]);
		expect(layout.totalHeight).toBe(590);
	});

	it("is empty without groups", () => {
		expect(computeHistoryLayout([], METRICS)).toMatchObject({ blocks: [], totalHeight: 0 });
	});
});

describe("findVisibleGroups", () => {
	const layout = computeHistoryLayout([9, 3, 6], METRICS);
	// Group 0: top 0, rows at 40, 150, 260 (bottom 360). Group 1: top 390, row at 430 (bottom 530).
	// Group 2: top 560, rows at 600 and 710 (bottom 810).

	it("gives the rows that meet the range, and the headings of groups it only touches", () => {
		expect(findVisibleGroups(layout, 0, 100)).toEqual([{ groupIndex: 0, firstRow: 0, lastRow: 0 }]);
		expect(findVisibleGroups(layout, 200, 450)).toEqual([
			{ groupIndex: 0, firstRow: 1, lastRow: 2 },
			{ groupIndex: 1, firstRow: 0, lastRow: 0 },
		]);
		// 395 to 420 is group 1's heading only.
		expect(findVisibleGroups(layout, 395, 420)).toEqual([
			{ groupIndex: 1, firstRow: 0, lastRow: -1 },
		]);
	});

	it("leaves out a row that ends where the range starts, and one that starts where it ends", () => {
		expect(findVisibleGroups(layout, 140, 150)).toEqual([
			{ groupIndex: 0, firstRow: 1, lastRow: 0 },
		]);
		expect(findVisibleGroups(layout, 139, 151)).toEqual([
			{ groupIndex: 0, firstRow: 0, lastRow: 1 },
		]);
	});

	it("clamps to the list, and finds nothing past its end", () => {
		expect(findVisibleGroups(layout, -1000, 10_000)).toEqual([
			{ groupIndex: 0, firstRow: 0, lastRow: 2 },
			{ groupIndex: 1, firstRow: 0, lastRow: 0 },
			{ groupIndex: 2, firstRow: 0, lastRow: 1 },
		]);
		expect(findVisibleGroups(layout, 900, 1000)).toEqual([]);
	});
});

describe("findItemTop and findItemAt", () => {
	const layout = computeHistoryLayout([9, 3, 6], METRICS);

	it("places an item by its group and row", () => {
		expect(findItemTop(layout, { groupIndex: 0, itemIndex: 0 })).toBe(40);
		expect(findItemTop(layout, { groupIndex: 0, itemIndex: 5 })).toBe(150);
		expect(findItemTop(layout, { groupIndex: 2, itemIndex: 3 })).toBe(710);
		expect(findItemTop(layout, { groupIndex: 7, itemIndex: 0 })).toBeUndefined();
	});

	it("finds the first item whose card reaches below a line", () => {
		expect(findItemAt(layout, 0)).toEqual({ groupIndex: 0, itemIndex: 0 });
		expect(findItemAt(layout, 139)).toEqual({ groupIndex: 0, itemIndex: 0 });
		expect(findItemAt(layout, 140)).toEqual({ groupIndex: 0, itemIndex: 3 });
		// In the space between two days: the next day's first card.
		expect(findItemAt(layout, 370)).toEqual({ groupIndex: 1, itemIndex: 0 });
		expect(findItemAt(layout, 800)).toEqual({ groupIndex: 2, itemIndex: 3 });
		expect(findItemAt(layout, 900)).toBeUndefined();
	});
});
