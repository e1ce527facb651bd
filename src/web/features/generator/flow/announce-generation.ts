// What a generation on the generator tells beyond its panel: the tab's title and favicon while it
// runs and when it ends (lib/ui/tab-status.ts), and a notification or tone when it ends unseen
// (lib/generations/finish-notices.ts, which the header's poll asks too, for the generations not followed here).
// It listens to the flow's actions, so it loads with the flow.
import { PROGRESS } from "../../../../shared/core/constants";
import { followHere, noticeFinished } from "../../../lib/generations/finish-notices";
import { clearTabStatus, showTabOutcome, showTabProgress } from "../../../lib/ui/tab-status";
import type { GenerationAction } from "./generation-state";

type Dispatch = (action: GenerationAction) => void;

/**
 * Passes the flow's actions on and announces them. Until `signal` aborts (cancel, reset, another
 * generation, leaving the generator), which puts the tab back as it was.
 */
export function announceGeneration(
	dispatch: Dispatch,
	signal: AbortSignal,
	generation: { id: string; prompt: string },
): Dispatch {
	signal.addEventListener("abort", clearTabStatus, { once: true });
	// While the generator follows it, its end is announced here, not by the header's poll.
	followHere(generation.id, signal);
	return (action) => {
		dispatch(action);
		if (signal.aborted) return;
		switch (action.type) {
			case "accepted":
			case "resumed":
				showTabProgress(PROGRESS.accepted);
				break;
			case "pollPending":
				if (action.bar !== undefined) showTabProgress(action.bar);
				break;
			case "completed":
			case "failed": {
				const outcome = action.type === "completed" ? "done" : "failed";
				showTabOutcome(outcome);
				noticeFinished({ outcome, prompt: generation.prompt, generationId: generation.id });
				break;
			}
		}
	};
}
