import { describe, expect, it } from "vitest";
import { EMPTY_HISTORY, recordEdit, redoEdit, UNDO_LIMIT, undoEdit } from "./mask-history";

const state = (value: number) => new Uint8ClampedArray([value]);

describe("undo and redo of the mask", () => {
	it("goes back and forward through the edits", () => {
		let history = recordEdit(EMPTY_HISTORY, state(0));
		history = recordEdit(history, state(1));
		const back = undoEdit(history, state(2));
		expect(back?.values).toEqual(state(1));
		const further = undoEdit(back?.history ?? EMPTY_HISTORY, state(1));
		expect(further?.values).toEqual(state(0));
		expect(undoEdit(further?.history ?? EMPTY_HISTORY, state(0))).toBeNull();
		const forward = redoEdit(further?.history ?? EMPTY_HISTORY, state(0));
		expect(forward?.values).toEqual(state(1));
		expect(redoEdit(forward?.history ?? EMPTY_HISTORY, state(1))?.values).toEqual(state(2));
	});

	it("drops what Redo would have brought back once a new edit is made", () => {
		const history = recordEdit(EMPTY_HISTORY, state(0));
		const back = undoEdit(history, state(1));
		const edited = recordEdit(back?.history ?? EMPTY_HISTORY, state(0));
		expect(redoEdit(edited, state(5))).toBeNull();
	});

	it("keeps at least 50 steps, the oldest dropped beyond its limit", () => {
		expect(UNDO_LIMIT).toBeGreaterThanOrEqual(50);
		let history = EMPTY_HISTORY;
		for (let step = 0; step < UNDO_LIMIT + 5; step++) history = recordEdit(history, state(step));
		expect(history.past).toHaveLength(UNDO_LIMIT);
		expect(history.past[0]).toEqual(state(5));
	});

	it("keeps a copy, not the array the editor goes on drawing into", () => {
		const live = state(3);
		const history = recordEdit(EMPTY_HISTORY, live);
		live[0] = 9;
		expect(undoEdit(history, live)?.values).toEqual(state(3));
	});
});
