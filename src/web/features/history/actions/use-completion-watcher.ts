import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { POLLING_INTERVAL_MS } from "../../../../shared/core/constants";
import { sleep } from "../../../../shared/core/sleep";
import {
	type Generation,
	type GenerationProgress,
	isInProgress,
} from "../../../../shared/generations/generation-responses";
import { ApiError, isAbortError } from "../../../lib/api/api-client";
import { useActiveGenerations } from "../../../lib/generations/active-generations";
import { subscribeToGenerations } from "../../../lib/generations/generation-stream";
import {
	fetchGeneration,
	pollGenerationStatus,
} from "../../../lib/generations/generations-requests";
import {
	reloadGenerationLists,
	removeGeneration,
	replaceGeneration,
	updateGenerationLists,
} from "../filters/history-cache";

// Each long poll holds one of the browser's six connections to the server for up to 1.5 s; two at
// a time leave the rest to the thumbnails. More in-progress items than that take turns.
const MAX_POLLS_AT_ONCE = 2;
// A polling URL that answers at once without news does not long-poll: wait before asking again.
const QUICK_ANSWER_MS = 300;

type Outcome = "changed" | "unchanged" | "failed";

/**
 * Follows every loaded generation that is still queued or running until it is finished, through
 * the page's stream of its generations (else each one's polling URL, a long poll), and puts the
 * finished record in place of its card.
 */
export function useCompletionWatcher(items: readonly Generation[]): void {
	const queryClient = useQueryClient();
	const watched = useMemo(() => items.filter((item) => isInProgress(item.status)), [items]);
	// Restart only when the set of watched items or their statuses change, not on every new page.
	const watchKey = watched.map((item) => `${item.id}:${item.status}`).join(",");

	// biome-ignore lint/correctness/useExhaustiveDependencies: `watchKey` stands for `watched`.
	useEffect(() => {
		if (watched.length === 0) return;
		const controller = new AbortController();
		const { signal } = controller;

		const refresh = async (item: Generation): Promise<Outcome> => {
			try {
				const fresh = await fetchGeneration(item.id, signal);
				if (fresh.status === item.status) return "unchanged";
				updateGenerationLists(queryClient, (data) => replaceGeneration(data, fresh));
				return "changed";
			} catch (error) {
				if (error instanceof ApiError && error.status === 404) {
					// Deleted elsewhere: drop the card and let the reload correct the counts.
					updateGenerationLists(queryClient, (data) =>
						removeGeneration(data, item.id, { isToday: false }),
					);
					void reloadGenerationLists(queryClient);
					return "changed";
				}
				return "failed";
			}
		};

		const check = async (item: Generation): Promise<Outcome> => {
			const started = performance.now();
			if (!item.polling_url) {
				await sleep(POLLING_INTERVAL_MS, signal);
				return refresh(item);
			}
			try {
				const poll = await pollGenerationStatus(item.polling_url, signal);
				if (poll.status !== item.status) return refresh(item);
			} catch (error) {
				if (error instanceof ApiError && error.status === 404) return refresh(item);
				return "failed";
			}
			if (performance.now() - started < QUICK_ANSWER_MS) {
				await sleep(POLLING_INTERVAL_MS - QUICK_ANSWER_MS, signal);
			}
			return "unchanged";
		};

		const pollInTurns = async () => {
			let turn = 0;
			while (!signal.aborted) {
				const batch = Array.from(
					{ length: Math.min(MAX_POLLS_AT_ONCE, watched.length) },
					(_, index) => watched[(turn + index) % watched.length],
				).filter((item): item is Generation => item !== undefined);
				turn += batch.length;
				const outcomes = await Promise.all(batch.map(check));
				// A change re-renders with a new watch key, which starts this effect over.
				if (outcomes.includes("changed")) return;
				if (outcomes.includes("failed")) await sleep(POLLING_INTERVAL_MS, signal);
			}
		};

		// The stream tells of each change; its record is read once the status moves, or once the
		// generation leaves the stream's list (finished while it reconnected, or deleted).
		const refreshed = new Set<string>();
		const refreshOnce = (item: Generation) => {
			if (refreshed.has(item.id) || signal.aborted) return;
			refreshed.add(item.id);
			void refresh(item).then((outcome) => {
				if (outcome === "failed") refreshed.delete(item.id);
			});
		};
		let isPolling = false;
		const unsubscribe = subscribeToGenerations({
			onGeneration: (id, answer) => {
				const item = watched.find((candidate) => candidate.id === id);
				if (item && answer.status !== item.status) refreshOnce(item);
			},
			onActive: (ids) => {
				for (const item of watched) if (!ids.includes(item.id)) refreshOnce(item);
			},
			onUnavailable: () => {
				if (isPolling) return;
				isPolling = true;
				void pollInTurns().catch((error: unknown) => {
					// A wait that the cleanup's abort cut short ends the watch; anything else is a fault.
					if (!isAbortError(error)) throw error;
				});
			},
		});
		signal.addEventListener("abort", unsubscribe, { once: true });

		return () => controller.abort();
	}, [watchKey, queryClient]);
}

/**
 * Reloads the history when the header's poll learns of a generation started elsewhere (another
 * tab, another device, the API) that the loaded pages do not show yet; once per generation, as
 * the filters may rightly leave it out. Answers each active generation's progress, by id.
 */
export function useNewActiveGenerations(
	items: readonly Generation[],
): ReadonlyMap<string, GenerationProgress | null> {
	const queryClient = useQueryClient();
	const active = useActiveGenerations();
	const reloadedFor = useRef(new Set<string>());
	useEffect(() => {
		if (!active) return;
		const shown = new Set(items.map((item) => item.id));
		const unseen = active.items.filter(
			(item) => !shown.has(item.id) && !reloadedFor.current.has(item.id),
		);
		if (unseen.length === 0) return;
		for (const item of unseen) reloadedFor.current.add(item.id);
		void reloadGenerationLists(queryClient);
	}, [active, items, queryClient]);
	return useMemo(() => new Map(active?.items.map((item) => [item.id, item.progress])), [active]);
}
