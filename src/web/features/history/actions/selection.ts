/** The generations picked in selection mode, and the one a Shift+click counts a range from. */
export type Selection = {
	ids: ReadonlySet<string>;
	anchorId: string | null;
};

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchorId: null };

/**
 * A click on a generation's checkbox. A plain click turns that one on or off; a Shift+click
 * turns every generation from the last one clicked to this one (in `orderedIds`, the order they
 * are shown in) to what this one becomes, as file managers and mail clients do.
 */
export function clickSelection(
	selection: Selection,
	orderedIds: readonly string[],
	id: string,
	options: { isRange: boolean },
): Selection {
	const isSelecting = !selection.ids.has(id);
	const ids = new Set(selection.ids);
	const from = selection.anchorId === null ? -1 : orderedIds.indexOf(selection.anchorId);
	const to = orderedIds.indexOf(id);
	const range =
		options.isRange && from >= 0 && to >= 0
			? orderedIds.slice(Math.min(from, to), Math.max(from, to) + 1)
			: [id];
	for (const each of range) {
		if (isSelecting) ids.add(each);
		else ids.delete(each);
	}
	return { ids, anchorId: id };
}

/** Adds every generation shown to the selection. */
export function selectAll(selection: Selection, shownIds: readonly string[]): Selection {
	return { ids: new Set([...selection.ids, ...shownIds]), anchorId: selection.anchorId };
}

/** Keeps only what is still shown (after a delete, or a reload without some of them). */
export function keepShown(selection: Selection, shownIds: ReadonlySet<string>): Selection {
	if ([...selection.ids].every((id) => shownIds.has(id))) return selection;
	const ids = new Set([...selection.ids].filter((id) => shownIds.has(id)));
	const anchorId =
		selection.anchorId !== null && shownIds.has(selection.anchorId) ? selection.anchorId : null;
	return { ids, anchorId };
}
