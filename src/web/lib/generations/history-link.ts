// How another part of the app asks the history to show a generation's result (the click of a
// notification that it finished): the navigation's state, which the history reads once. Features do
// not import each other.
import { z } from "zod/mini";
import {
	type Generation,
	GenerationSchema,
} from "../../../shared/generations/generation-responses";

type HistoryLinkState = { openGeneration: Generation };

/** The navigation state that asks the history to show `generation`'s result. */
export function createHistoryLinkState(generation: Generation): HistoryLinkState {
	return { openGeneration: generation };
}

/** The generation a navigation's state asks the history to show, or null when it asks nothing. */
export function readHistoryLinkState(state: unknown): Generation | null {
	if (typeof state !== "object" || state === null || !("openGeneration" in state)) return null;
	const parsed = z.safeParse(GenerationSchema, state.openGeneration);
	return parsed.success ? parsed.data : null;
}
