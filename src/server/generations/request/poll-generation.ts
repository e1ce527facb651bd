import type { PollResponse } from "../../../shared/generations/generations";
import type { GenerationRow } from "../../db/schema";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { QUEUE_MOVED_KEY, waitForAnyChange } from "../generation-events";
import { findCachedQueuePosition } from "../run/queue-position-cache";
import { presentPoll } from "./generation-presenter";
import { getGeneration } from "./get-generation";

/**
 * Answers a poll at once when the generation is finished, or differs from the answer whose
 * version is `after` (a change between two polls), else when it changes or `waitMs` passes.
 * A queued generation's answer also changes when the queue moves (its position in `progress`).
 * It listens before it reads, so one read tells what a change after it would be news to: a
 * waiting poll reads its generation twice, once before and once after the change.
 */
export async function pollGeneration(
	deps: Pick<GenerationDeps, "database" | "events">,
	viewer: Viewer,
	id: string,
	options: { waitMs: number; after?: string | undefined; signal?: AbortSignal | undefined },
): Promise<PollResponse> {
	const { waitMs, after, signal } = options;
	const { events } = deps;
	const present = async (row: GenerationRow) =>
		presentPoll(row, await findCachedQueuePosition(deps.database.db, events, row));
	if (waitMs <= 0) return present(await getGeneration(deps, viewer, id));
	const listening = new AbortController();
	const stopListening = () => listening.abort();
	signal?.addEventListener("abort", stopListening, { once: true });
	try {
		const queueMovesBefore = events.queueMoves();
		const changes = [waitForAnyChange(events, [id], waitMs, listening.signal)];
		const row = await getGeneration(deps, viewer, id);
		let answer = await present(row);
		if (row.status === "completed" || row.status === "failed") return answer;
		// What the caller saw is the answer it names (`after`), else this one.
		const seen = after || answer.version;
		if (row.status === "queued") {
			changes.push(waitForAnyChange(events, [QUEUE_MOVED_KEY], waitMs, listening.signal));
			// A queue move heard before its wait was listened to: the place read may be the old one.
			if (events.queueMoves() !== queueMovesBefore) answer = await present(row);
		}
		if (answer.version !== seen) return answer;
		await Promise.race(changes);
		return present(await getGeneration(deps, viewer, id));
	} finally {
		listening.abort();
		signal?.removeEventListener("abort", stopListening);
	}
}
