import { describe, expect, it } from "vitest";
import { clickSelection, EMPTY_SELECTION, keepShown, selectAll } from "./selection";

const SHOWN = ["a", "b", "c", "d", "e"];

function click(selection = EMPTY_SELECTION, id: string, isRange = false) {
	return clickSelection(selection, SHOWN, id, { isRange });
}

describe("selection", () => {
	it("turns one generation on and off with a plain click", () => {
		const once = click(EMPTY_SELECTION, "b");
		expect([...once.ids]).toEqual(["b"]);
		expect([...click(once, "b").ids]).toEqual([]);
	});

	it("selects the range from the last click with Shift, in either direction", () => {
		expect([...click(click(EMPTY_SELECTION, "b"), "d", true).ids].sort()).toEqual(["b", "c", "d"]);
		expect([...click(click(EMPTY_SELECTION, "d"), "a", true).ids].sort()).toEqual([
			"a",
			"b",
			"c",
			"d",
		]);
	});

	it("clears a range when the Shift+clicked one was selected", () => {
		const all = selectAll(EMPTY_SELECTION, SHOWN);
		const anchored = click(click(all, "b"), "b");
		expect([...click(anchored, "d", true).ids].sort()).toEqual(["a", "e"]);
	});

	it("selects only the clicked one with Shift when there is no earlier click", () => {
		expect([...click(EMPTY_SELECTION, "c", true).ids]).toEqual(["c"]);
	});

	it("forgets what is no longer shown", () => {
		const selection = click(click(EMPTY_SELECTION, "a"), "c");
		const kept = keepShown(selection, new Set(["a", "b"]));
		expect([...kept.ids]).toEqual(["a"]);
		expect(kept.anchorId).toBeNull();
		expect(keepShown(kept, new Set(["a", "b"]))).toBe(kept);
	});
});
