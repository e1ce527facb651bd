import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { clickSelection, EMPTY_SELECTION, type Selection, selectAll } from "./selection";

/**
 * Selection mode of the history: whether it is on, what is selected of what is shown (in the
 * order shown), and the clicks that change it. Escape outside a field or dialog leaves the mode.
 */
export function useSelectionMode(shownIds: readonly string[]) {
	const [isActive, setIsActive] = useState(false);
	const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
	const selectedIds = useMemo(
		() => shownIds.filter((id) => selection.ids.has(id)),
		[shownIds, selection.ids],
	);
	/** For SelectionContext, which every drawn card reads. */
	const context = useMemo(
		() => ({ isActive, selectedIds: new Set(selectedIds) }),
		[isActive, selectedIds],
	);

	// A click reads the latest order without the cards' handlers changing with every page.
	const shownRef = useRef(shownIds);
	useLayoutEffect(() => {
		shownRef.current = shownIds;
	});

	const click = useCallback((id: string, options: { isRange: boolean }) => {
		setSelection((current) => clickSelection(current, shownRef.current, id, options));
	}, []);
	const selectAllShown = useCallback(
		() => setSelection((current) => selectAll(current, shownRef.current)),
		[],
	);
	const clear = useCallback(() => setSelection(EMPTY_SELECTION), []);
	const toggle = useCallback(() => {
		setIsActive((current) => !current);
		setSelection(EMPTY_SELECTION);
	}, []);
	const leave = useCallback(() => {
		setIsActive(false);
		setSelection(EMPTY_SELECTION);
	}, []);

	useEffect(() => {
		if (!isActive) return;
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== "Escape" || event.defaultPrevented) return;
			const target = event.target;
			const isInside =
				target instanceof HTMLElement &&
				target.closest("input, textarea, select, [role=dialog], [role=alertdialog], [role=menu]");
			if (!isInside) leave();
		};
		document.addEventListener("keydown", onKeyDown);
		return () => document.removeEventListener("keydown", onKeyDown);
	}, [isActive, leave]);

	return { isActive, selectedIds, context, click, selectAllShown, clear, toggle, leave };
}
