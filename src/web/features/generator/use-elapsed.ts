import { useEffect, useState } from "react";
import { ELAPSED_TICK_MS } from "../../../shared/constants";
import { measureElapsed } from "../../../shared/elapsed";

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
