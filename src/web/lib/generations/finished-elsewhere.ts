// Word of the person's generations that end where this page does not follow them (another tab,
// another device, the API, or left behind on the generator): the header's poll of the active
// generations sees them leave its list, and while the page is hidden and "Notify me when done" is
// on, each that completed or failed raises a notification (lib/generations/finish-notices.ts). Loaded with
// that poll, after the first paint.
import type {
	ActiveGenerations,
	Generation,
} from "../../../shared/generations/generation-responses";
import { isAnnouncedHere, noticeFinishedElsewhere, readNotifyChoice } from "./finish-notices";
import { fetchGeneration } from "./generations-requests";

/** The ids `previous` listed that `next` no longer lists: finished, or deleted. */
export function findLeftIds(previous: ActiveGenerations, next: ActiveGenerations): string[] {
	const listed = new Set(next.items.map((item) => item.id));
	return previous.items.filter((item) => !listed.has(item.id)).map((item) => item.id);
}

/**
 * Announces the generations with `ids`, which left the active list: each that its record says
 * completed or failed, unless this page says so itself (the generator follows it) or already did.
 * Nothing while the page is seen or the person did not ask; a deleted one is not announced.
 * Clicking a notification calls `onOpen` with the generation, to show its result.
 */
export async function noticeLeftGenerations(
	ids: readonly string[],
	options: { signal: AbortSignal; onOpen: (generation: Generation) => void },
): Promise<void> {
	for (const id of ids) {
		if (options.signal.aborted) return;
		// Checked before each request: only a hidden page with the switch on asks anything.
		if (document.visibilityState !== "hidden" || !readNotifyChoice()) return;
		if (isAnnouncedHere(id)) continue;
		let generation: Generation;
		try {
			generation = await fetchGeneration(id, options.signal);
		} catch {
			// Deleted (404) or not readable now: nothing to announce.
			continue;
		}
		if (generation.status !== "completed" && generation.status !== "failed") continue;
		noticeFinishedElsewhere(
			{
				outcome: generation.status === "completed" ? "done" : "failed",
				prompt: generation.prompt,
				generationId: generation.id,
			},
			() => options.onOpen(generation),
		);
	}
}
