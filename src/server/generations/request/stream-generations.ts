import type { PollResponse } from "../../../shared/generations/generations";
import type { GenerationRow } from "../../db/schema";
import type { Viewer } from "../../person/viewer";
import type { GenerationDeps, GenerationStreamTimes } from "../generation-deps";
import { personChangeKey, QUEUE_MOVED_KEY, waitForAnyChange } from "../generation-events";
import { findActiveGenerations, findGenerationById } from "../generation-repository";
import { findCachedQueuePositions } from "../run/queue-position-cache";
import { presentPoll } from "./generation-presenter";

/** What the stream sends, as the route writes it: Server-Sent Events' fields. */
export type GenerationStreamMessage =
	| { kind: "active"; ids: readonly string[] }
	| { kind: "generation"; id: string; answer: PollResponse }
	| { kind: "heartbeat" };

type StreamDeps = Pick<GenerationDeps, "database" | "events">;

const isFinished = (row: GenerationRow) => row.status === "completed" || row.status === "failed";

/**
 * Follows the viewer's own queued and running generations, wherever they were started, until
 * `signal` aborts or `times.lifetimeMs` passes, handing `send` what a page needs: the ids still
 * queued or running (at the start and whenever they change) and, for each of them, its poll answer
 * (presentPoll, the status route's) whenever it changes, ending with its final one. A new status is
 * sent at once; progress and queue places at most once a `progressIntervalMs`, the first at once.
 * Like a waiting poll it listens before it reads, so no change falls between a read and its wait.
 * `isStillAllowed` is asked every `accessCheckMs`: a false ends the stream.
 */
export async function streamGenerations(
	deps: StreamDeps,
	viewer: Viewer,
	options: {
		send: (message: GenerationStreamMessage) => Promise<void>;
		isStillAllowed: () => Promise<boolean>;
		signal: AbortSignal;
		times: GenerationStreamTimes;
	},
): Promise<void> {
	const { events } = deps;
	const { send, times } = options;
	const ending = new AbortController();
	const end = () => ending.abort();
	options.signal.addEventListener("abort", end, { once: true });
	const lifetime = setTimeout(end, times.lifetimeMs);
	const heartbeat = setInterval(
		() => void send({ kind: "heartbeat" }).catch(end),
		times.heartbeatMs,
	);
	const accessCheck = setInterval(() => {
		void options.isStillAllowed().then(
			(isAllowed) => isAllowed || end(),
			() => end(),
		);
	}, times.accessCheckMs);

	// What this page was last sent of each generation it follows, and the ids it was told of.
	const sent = new Map<string, PollResponse>();
	const held = new Map<string, PollResponse>();
	let sentIds: string | undefined;
	let progressSentAt = Number.NEGATIVE_INFINITY;
	let flushTimer: NodeJS.Timeout | undefined;

	const sendAnswer = async (id: string, answer: PollResponse) => {
		held.delete(id);
		sent.set(id, answer);
		await send({ kind: "generation", id, answer });
	};
	const flushHeld = async () => {
		flushTimer = undefined;
		if (held.size === 0 || ending.signal.aborted) return;
		progressSentAt = performance.now();
		for (const [id, answer] of [...held]) await sendAnswer(id, answer);
	};
	const offer = async (id: string, answer: PollResponse) => {
		const last = sent.get(id);
		if (last?.version === answer.version) {
			held.delete(id);
			return;
		}
		// A new status (or a first answer) is news at once; the rest waits its turn.
		if (!last || last.status !== answer.status) {
			await sendAnswer(id, answer);
			return;
		}
		held.set(id, answer);
	};

	try {
		// The ids listened to, and whether the queue is: what the last read found.
		let followed: string[] = [];
		let isQueueListened = false;
		while (!ending.signal.aborted && !events.isEnding()) {
			const round = new AbortController();
			const stopRound = () => round.abort();
			ending.signal.addEventListener("abort", stopRound, { once: true });
			const queueMovesBefore = events.queueMoves();
			const keys = [
				personChangeKey(viewer.id),
				...followed,
				...(isQueueListened ? [QUEUE_MOVED_KEY] : []),
			];
			const changed = waitForAnyChange(events, keys, times.heartbeatMs, round.signal);
			try {
				const active = await findActiveGenerations(deps.database.db, viewer.id);
				const ids = active.map((row) => row.id);
				if (ids.join(",") !== sentIds) {
					sentIds = ids.join(",");
					await send({ kind: "active", ids });
				}
				// Those that left the list since: finished (their last answer), or deleted (none).
				for (const id of followed.filter((id) => !ids.includes(id))) {
					const row = await findGenerationById(deps.database.db, id);
					if (row && row.deleted_at === null && isFinished(row)) {
						await offer(id, presentPoll(row, null));
					}
					sent.delete(id);
					held.delete(id);
				}
				let positions = await findCachedQueuePositions(deps.database.db, events, active);
				// A queue move heard before this read listened to the queue: the places may be old.
				if (isQueueListened && events.queueMoves() !== queueMovesBefore) {
					positions = await findCachedQueuePositions(deps.database.db, events, active);
				}
				for (const row of active) {
					await offer(row.id, presentPoll(row, positions.get(row.id) ?? null));
				}
				if (held.size > 0 && !flushTimer) {
					const wait = progressSentAt + times.progressIntervalMs - performance.now();
					if (wait <= 0) await flushHeld();
					else flushTimer = setTimeout(() => void flushHeld().catch(end), wait);
				}
				const isAnyQueued = active.some((row) => row.status === "queued");
				// A generation new to the list, or a first queued one, was read before its changes
				// were listened to: listen to them now and read again at once.
				const isSettled = ids.join(",") === followed.join(",") && isAnyQueued === isQueueListened;
				followed = ids;
				isQueueListened = isAnyQueued;
				if (isSettled) await changed;
			} finally {
				round.abort();
				ending.signal.removeEventListener("abort", stopRound);
			}
		}
	} finally {
		options.signal.removeEventListener("abort", end);
		clearTimeout(lifetime);
		clearTimeout(flushTimer);
		clearInterval(heartbeat);
		clearInterval(accessCheck);
		ending.abort();
	}
}
