// What every card reads without it passing through the list: changing it re-renders the cards
// that use it, not the list, whose cards are memoised.
import { createContext } from "react";

/** Which generations are being deleted, if any: every Delete button is disabled meanwhile. */
export const DeletingIdsContext = createContext<ReadonlySet<string>>(new Set());

/** Whether selection mode is on, and what is selected: each card then shows a checkbox. */
export const SelectionContext = createContext<{
	isActive: boolean;
	selectedIds: ReadonlySet<string>;
}>({ isActive: false, selectedIds: new Set() });
