// The notification that a generation finished, as the page raises it (web/lib/generations/finish-notices.ts)
// and as a push brings it (server/push, decision 028): the same titles, and one tag a generation,
// so whichever comes second replaces the first. No schema library: the page's notifications load
// without one.
import { finishNoticeDone, finishNoticeFailed } from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

/**
 * The title of a finished generation's notification: in the page's language when the page raises
 * it, in the account's when the server pushes it.
 */
export function finishNoticeTitle(outcome: "done" | "failed", options?: MessageOptions): string {
	return outcome === "done" ? finishNoticeDone(options) : finishNoticeFailed(options);
}

/** A generation's notification tag: one per generation, whichever page or push raised it. */
export function finishNoticeTag(generationId: string): string {
	return `generation-${generationId}`;
}
