// The person's queued and running generations, wherever they were started (this tab, another one,
// another device, the API), kept in the query cache under one key: the header's "1 running" follows
// them with a long poll, and the history reads the same entry for each card's progress. Loaded
// after the first paint, for signed-in people only.

import { type QueryClient, skipToken, useQuery } from "@tanstack/react-query";
import { POLLING_INTERVAL_MS } from "../../shared/constants";
import type { ActiveGenerations } from "../../shared/generation-responses";
import { sleep } from "../../shared/sleep";
import { isAbortError } from "./api-client";
import { fetchActiveGenerations } from "./generations-requests";

export const ACTIVE_GENERATIONS_KEY = ["generations", "active"] as const;

// The server holds each poll this long at most when nothing changes.
const LONG_POLL_MS = 25_000;
// An answer without news sooner than this comes from a server that did not wait (one on its way
// out, say): asked again at once, it would answer at once again.
const QUICK_ANSWER_MS = 300;

/**
 * Keeps the cache entry current until `signal` aborts: one answer at once, then each next one
 * when something changes, the next wait asked for as soon as one ends. A failed request, or a
 * quick answer without news, is followed by the polling interval. Each answer
 * after the first is handed to `onAnswer` with the one before it, so what left the list is known.
 */
export async function followActiveGenerations(
	queryClient: QueryClient,
	signal: AbortSignal,
	onAnswer?: (previous: ActiveGenerations, next: ActiveGenerations) => void,
): Promise<void> {
	let after: string | undefined;
	let previous: ActiveGenerations | undefined;
	while (!signal.aborted) {
		const askedAt = performance.now();
		try {
			const active = await fetchActiveGenerations({
				after,
				waitMs: after ? LONG_POLL_MS : 0,
				signal,
			});
			queryClient.setQueryData(ACTIVE_GENERATIONS_KEY, active);
			if (previous && active.version !== previous.version) onAnswer?.(previous, active);
			previous = active;
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
