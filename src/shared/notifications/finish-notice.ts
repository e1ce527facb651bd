// The notification that a generation finished, as the page raises it (web/lib/finish-notices.ts)
// and as a push brings it (server/push, decision 028): the same titles, and one tag a generation,
// so whichever comes second replaces the first. No schema library: the page's notifications load
// without one.

/** The titles of a finished generation's notification. */
export const FINISH_NOTICE_TITLES = {
	done: "Your images are ready",
	failed: "Your generation failed",
} as const;

/** A generation's notification tag: one per generation, whichever page or push raised it. */
export function finishNoticeTag(generationId: string): string {
	return `generation-${generationId}`;
}
