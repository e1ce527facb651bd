import type { PollResponse } from "../../../shared/generations";
import type { GenerationRow } from "../../db/schema";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { QUEUE_MOVED_KEY, waitForAnyChange } from "../generation-events";
import { findQueuePosition } from "../run/queue-order";
import { presentPoll } from "./generation-presenter";
import { getGeneration } from "./get-generation";
/**
 * Answers a poll at once when the generation is finished, or differs from the answer whose
 * version is `after` (a change between two polls), else when it changes or `waitMs` passes.
 * A queued generation's answer also changes when the queue moves (its position in `progress`).
 */
export async function pollGeneration(
	deps: Pick<GenerationDeps, "database" | "events">,
	viewer: Viewer,
	id: string,
	options: { waitMs: number; after?: string | undefined; signal?: AbortSignal | undefined },
): Promise<PollResponse> {
	const { waitMs, after, signal } = options;
	const present = async (row: GenerationRow) =>
		presentPoll(row, await findQueuePosition(deps.database.db, row));
	const row = await getGeneration(deps, viewer, id);
	if (row.status === "completed" || row.status === "failed" || waitMs <= 0) return present(row);
	const keys = row.status === "queued" ? [id, QUEUE_MOVED_KEY] : [id];
	const changed = waitForAnyChange(deps.events, keys, waitMs, signal);
	// Read again after subscribing, so a change between the two reads is not missed. What the
	// caller saw is the answer it names (`after`), else the first read's.
	const [seen, current] = await Promise.all([
		after || present(row).then((before) => before.version),
		getGeneration(deps, viewer, id),
	]);
	const answer = await present(current);
	// Anything the answer says (status, message, progress) that moved since is news already.
	if (current.api_id !== row.api_id || answer.version !== seen) return answer;
	await changed;
	return present(await getGeneration(deps, viewer, id));
}
