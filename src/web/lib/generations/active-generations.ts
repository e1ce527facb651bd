// The person's queued and running generations, wherever they were started (this tab, another one,
// another device, the API), kept in the query cache under one key: the header's "1 running" follows
// them through the page's one stream of its generations (generation-stream.ts), else with a long
// poll, and the history reads the same entry for each card's progress. Loaded after the first
// paint, for signed-in people only.

import { type QueryClient, skipToken, useQuery } from "@tanstack/react-query";
import { POLLING_INTERVAL_MS } from "../../../shared/core/constants";
import { sleep } from "../../../shared/core/sleep";
import type {
	ActiveGeneration,
	ActiveGenerations,
} from "../../../shared/generations/generation-responses";
import { isAbortError } from "../api/api-client";
import { subscribeToGenerations } from "./generation-stream";
import { fetchActiveGenerations } from "./generations-requests";

export const ACTIVE_GENERATIONS_KEY = ["generations", "active"] as const;

// The server holds each poll this long at most when nothing changes.
const LONG_POLL_MS = 25_000;
// An answer without news sooner than this comes from a server that did not wait (one on its way
// out, say): asked again at once, it would answer at once again.
const QUICK_ANSWER_MS = 300;

// Without the stream, the long poll keeps the entry this long before the stream is tried again.
const POLLING_SPELL_MS = 60_000;

type OnAnswer = (previous: ActiveGenerations, next: ActiveGenerations) => void;

/**
 * Keeps the cache entry current until `signal` aborts, through the page's stream of its
 * generations; where the stream cannot be had, by the long poll for a while, then the stream is
 * tried again. Each answer after the first is handed to `onAnswer` with the one before it, so
 * what left the list is known.
 */
export async function followActiveGenerations(
	queryClient: QueryClient,
	signal: AbortSignal,
	onAnswer?: OnAnswer,
): Promise<void> {
	let previous: ActiveGenerations | undefined;
	const publish = (active: ActiveGenerations) => {
		queryClient.setQueryData(ACTIVE_GENERATIONS_KEY, active);
		if (previous && active.version !== previous.version) onAnswer?.(previous, active);
		previous = active;
	};
	while (!signal.aborted) {
		await streamActiveGenerations(publish, signal);
		if (signal.aborted) return;
		await pollActiveGenerations(publish, signal, performance.now() + POLLING_SPELL_MS);
	}
}

/** Follows through the stream until `signal` aborts or the stream is unavailable. */
function streamActiveGenerations(
	publish: (active: ActiveGenerations) => void,
	signal: AbortSignal,
): Promise<void> {
	return new Promise((resolve) => {
		let ids: readonly string[] = [];
		const items = new Map<string, ActiveGeneration>();
		// Published once every listed generation's answer has come, which follows the list at once.
		const publishWhenKnown = () => {
			const listed = ids.map((id) => items.get(id));
			if (listed.some((item) => item === undefined)) return;
			const known = listed.filter((item): item is ActiveGeneration => item !== undefined);
			publish({ count: known.length, items: known, version: JSON.stringify(known) });
		};
		let unsubscribe: (() => void) | undefined;
		let isDone = false;
		const done = () => {
			if (isDone) return;
			isDone = true;
			unsubscribe?.();
			signal.removeEventListener("abort", done);
			resolve();
		};
		unsubscribe = subscribeToGenerations({
			onActive: (next) => {
				ids = next;
				for (const id of [...items.keys()]) if (!next.includes(id)) items.delete(id);
				publishWhenKnown();
			},
			onGeneration: (id, answer) => {
				if (answer.status !== "queued" && answer.status !== "running") {
					items.delete(id);
					ids = ids.filter((listed) => listed !== id);
				} else items.set(id, { id, status: answer.status, progress: answer.progress });
				publishWhenKnown();
			},
			onUnavailable: done,
		});
		if (isDone) unsubscribe();
		else signal.addEventListener("abort", done, { once: true });
	});
}

/**
 * The long poll, until `signal` aborts or `until` passes: one answer at once, then each next one
 * when something changes, the next wait asked for as soon as one ends. A failed request, or a
 * quick answer without news, is followed by the polling interval.
 */
async function pollActiveGenerations(
	publish: (active: ActiveGenerations) => void,
	signal: AbortSignal,
	until: number,
): Promise<void> {
	let after: string | undefined;
	while (!signal.aborted && performance.now() < until) {
		const askedAt = performance.now();
		try {
			const active = await fetchActiveGenerations({
				after,
				waitMs: after ? LONG_POLL_MS : 0,
				signal,
			});
			publish(active);
			// After a wait that ended without news the next one starts at once, so a generation started
			// then is heard of as soon as any other; a quick answer without news is spaced out.
			const isQuickAnswer = performance.now() - askedAt < QUICK_ANSWER_MS;
			if (active.version === after && isQuickAnswer) await sleep(POLLING_INTERVAL_MS, signal);
			after = active.version;
		} catch (error) {
			if (isAbortError(error)) return;
			// An abort during the wait ends the loop, which checks the signal.
			await sleep(POLLING_INTERVAL_MS, signal).catch(() => {});
		}
	}
}

/** What the header's poll last learned; undefined until its first answer. */
export function useActiveGenerations(): ActiveGenerations | undefined {
	const { data } = useQuery<ActiveGenerations>({
		queryKey: ACTIVE_GENERATIONS_KEY,
		// Only the header's poll fills the entry; readers never fetch it themselves (skipToken says
		// so, where `enabled: false` without a query function had each render log an error).
		queryFn: skipToken,
		staleTime: Number.POSITIVE_INFINITY,
	});
	return data;
}
