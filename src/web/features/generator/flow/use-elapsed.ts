import { useEffect, useState } from "react";
import { ELAPSED_TICK_MS } from "../../../../shared/core/constants";

/**
 * Milliseconds from `startedAt` to `endedAt`, or to now while `isRunning`, updated every
 * ELAPSED_TICK_MS (SPEC.md section 4, Elapsed timer); null when unknown.
 */
export function useElapsed(
	startedAt: number | null,
	endedAt: number | null,
	isRunning: boolean,
): number | null {
	const [now, setNow] = useState(() => Date.now());

	useEffect(() => {
		if (!isRunning) return;
		setNow(Date.now());
		const timer = setInterval(() => setNow(Date.now()), ELAPSED_TICK_MS);
		return () => clearInterval(timer);
	}, [isRunning]);

	return measureElapsed(startedAt, isRunning ? now : endedAt);
}

/**
 * Milliseconds from `start` to `end` (epoch milliseconds), or null when either is unknown. It
 * lives beside the hook, not with the elapsed format: the first page counts time but shows no
 * format, which brings its messages.
 */
export function measureElapsed(
	start: number | null | undefined,
	end: number | null | undefined,
): number | null {
	if (start === null || start === undefined || end === null || end === undefined) return null;
	if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
	return end - start;
}
