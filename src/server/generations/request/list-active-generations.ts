import type { ActiveGenerations } from "../../../shared/generations/generation-responses";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps } from "../generation-deps";
import { personChangeKey, QUEUE_MOVED_KEY, waitForAnyChange } from "../generation-events";
import { findActiveGenerations } from "../generation-repository";
import { findCachedQueuePositions } from "../run/queue-position-cache";
import { presentActiveGeneration, versionOf } from "./generation-presenter";

type ActiveDeps = Pick<GenerationDeps, "database" | "events">;

async function readActive(deps: ActiveDeps, viewer: Viewer) {
	const rows = await findActiveGenerations(deps.database.db, viewer.id);
	const positions = await findCachedQueuePositions(deps.database.db, deps.events, rows);
	const items = rows.map((row) => presentActiveGeneration(row, positions.get(row.id) ?? null));
	const version = versionOf(items);
	return { answer: { count: items.length, items, version } satisfies ActiveGenerations, rows };
}

/**
 * The viewer's own queued and running generations (the administrator's too: only their own), for
 * "1 running" on every open page. With `after` equal to the current version, the answer waits for
 * a change (a new generation of the viewer, a change of one listed, or the queue moving while one
 * is queued, in any server process) or `waitMs`; otherwise it answers at once.
 */
export async function listActiveGenerations(
	deps: ActiveDeps,
	viewer: Viewer,
	options: { after?: string; waitMs: number; signal?: AbortSignal },
): Promise<ActiveGenerations> {
	const first = await readActive(deps, viewer);
	if (options.waitMs <= 0 || options.after !== first.answer.version) return first.answer;

	// A queued one's position moves with the queue: other people's generations start or come.
	const isAnyQueued = first.rows.some((row) => row.status === "queued");
	const keys = [
		personChangeKey(viewer.id),
		...first.rows.map((row) => row.id),
		...(isAnyQueued ? [QUEUE_MOVED_KEY] : []),
	];
	const changed = waitForAnyChange(deps.events, keys, options.waitMs, options.signal);
	// Read again after subscribing, so a change between the two reads is not missed.
	const current = await readActive(deps, viewer);
	if (current.answer.version !== first.answer.version) return current.answer;
	await changed;
	return (await readActive(deps, viewer)).answer;
}
