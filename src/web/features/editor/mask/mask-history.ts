// Undo and Redo of the mask: each step is the whole mask as it was before an edit (a stroke,
// Invert, Clear). A 1024 px mask is a megabyte, so 60 steps stay within what a phone holds.

/** How many steps back Undo reaches. */
export const UNDO_LIMIT = 60;

export type MaskHistory = {
	/** The states before each edit, oldest first. */
	past: Uint8ClampedArray[];
	/** The states Undo went back from, the next Redo last. */
	future: Uint8ClampedArray[];
};

export const EMPTY_HISTORY: MaskHistory = { past: [], future: [] };

/** Before an edit: `before` becomes the step Undo returns to, and Redo's steps are dropped. */
export function recordEdit(history: MaskHistory, before: Uint8ClampedArray): MaskHistory {
	const past = [...history.past, before.slice()];
	return { past: past.slice(-UNDO_LIMIT), future: [] };
}

/** One step back from `current`, or null when there is none. */
export function undoEdit(
	history: MaskHistory,
	current: Uint8ClampedArray,
): { history: MaskHistory; values: Uint8ClampedArray } | null {
	const values = history.past.at(-1);
	if (!values) return null;
	return {
		history: { past: history.past.slice(0, -1), future: [...history.future, current.slice()] },
		values,
	};
}

/** One step forward again from `current`, or null when there is none. */
export function redoEdit(
	history: MaskHistory,
	current: Uint8ClampedArray,
): { history: MaskHistory; values: Uint8ClampedArray } | null {
	const values = history.future.at(-1);
	if (!values) return null;
	return {
		history: { past: [...history.past, current.slice()], future: history.future.slice(0, -1) },
		values,
	};
}
