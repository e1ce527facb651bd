// Apart from generation-state.ts, which the first page loads: only the progress panel, which loads
// on demand, shows the progress (docs/decisions/005-first-load-budget.md).
import { PROGRESS_STEPS, progressAfterPolls } from "../../../../shared/generations/progress";
import type { GenerationState } from "./generation-state";

/**
 * The progress of SPEC.md section 4: 5 while starting, 15 once accepted, 20 and 8 more per
 * "not yet" while polling (at most 95), 100 when completed, 0 otherwise. While polling, the bar the
 * flow worked out from the provider's reports wins where there is one (advancePollingBar).
 */
export function readProgress(state: GenerationState): number {
	switch (state.phase) {
		case "starting":
			return PROGRESS_STEPS.starting;
		case "following":
			if (state.pendingPolls === null) return PROGRESS_STEPS.accepted;
			return state.bar ?? progressAfterPolls(state.pendingPolls);
		case "completed":
			return PROGRESS_STEPS.done;
		case "failed":
			return PROGRESS_STEPS.failed;
		case "idle":
			return PROGRESS_STEPS.idle;
	}
}
