// What every card reads without it passing through the list: changing it re-renders the cards
// that use it, not the list, whose cards are memoised.
import { createContext } from "react";
import type { GenerationProgress } from "../../../../shared/generations/generation-responses";

/** Which generations are being deleted, if any: every Delete button is disabled meanwhile. */
export const DeletingIdsContext = createContext<ReadonlySet<string>>(new Set());

/** Whether selection mode is on, and what is selected: each card then shows a checkbox. */
export const SelectionContext = createContext<{
	isActive: boolean;
	selectedIds: ReadonlySet<string>;
}>({ isActive: false, selectedIds: new Set() });

/**
 * What is happening to each unfinished generation, by id, as the header's poll of the person's
 * active generations last said (lib/generations/active-generations.ts); empty until it answers.
 */
export const ActiveProgressContext = createContext<ReadonlyMap<string, GenerationProgress | null>>(
	new Map(),
);
