import { elapsedMilliseconds, elapsedMinutes, elapsedSeconds } from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

/** What the elapsed display shows when the time is not known (SPEC.md section 4, Elapsed timer). */
export const UNKNOWN_ELAPSED = "—";

/**
 * Formats a duration the way the generator shows elapsed time: milliseconds under a second
 * ("850ms"), seconds with one decimal under a minute ("12.3s"), otherwise minutes and seconds
 * ("2m 5s"); a dash when the value is unknown. Digits are cut, never rounded up, so the display
 * never runs ahead of the clock (59.96 s is "59.9s", not "60.0s"). In the page's language
 * ("12,3 s", "2 min 5 s" in German) unless `options` names another.
 */
export function formatElapsed(
	milliseconds: number | null | undefined,
	options?: MessageOptions,
): string {
	if (milliseconds === null || milliseconds === undefined || !Number.isFinite(milliseconds)) {
		return UNKNOWN_ELAPSED;
	}
	// Clocks on two machines can disagree by a little; a negative duration is shown as none.
	const duration = Math.max(0, Math.floor(milliseconds));
	if (duration < 1_000) return elapsedMilliseconds({ milliseconds: duration }, options);
	if (duration < 60_000) {
		const tenths = Math.floor(duration / 100);
		return elapsedSeconds({ whole: Math.floor(tenths / 10), tenth: tenths % 10 }, options);
	}
	const minutes = Math.floor(duration / 60_000);
	const seconds = Math.floor((duration % 60_000) / 1_000);
	return elapsedMinutes({ minutes, seconds }, options);
}
