import { useQueryClient } from "@tanstack/react-query";
import { Loader } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	activeGenerationsLabel,
	activeGenerationsShortWord,
	activeGenerationsWord,
} from "../../../shared/i18n/messages";
import {
	followActiveGenerations,
	useActiveGenerations,
} from "../../lib/generations/active-generations";
import { findLeftIds, noticeLeftGenerations } from "../../lib/generations/finished-elsewhere";
import { createHistoryLinkState } from "../../lib/generations/history-link";

/**
 * "1 running" in the header: the person's queued and running generations, wherever they were
 * started, linking to the history. Nothing while there are none. It runs the one poll that keeps
 * them current (lib/generations/active-generations.ts), which also tells of those that finish unseen
 * (lib/generations/finished-elsewhere.ts): a notification whose click opens the result in the history.
 */
export function ActiveGenerationsBadge() {
	const queryClient = useQueryClient();
	const active = useActiveGenerations();
	// The latest navigate, for a notification clicked later: the poll does not restart with it.
	const navigate = useNavigate();
	const navigateRef = useRef(navigate);
	useEffect(() => {
		navigateRef.current = navigate;
	}, [navigate]);

	useEffect(() => {
		const controller = new AbortController();
		const { signal } = controller;
		void followActiveGenerations(queryClient, signal, (previous, next) => {
			const leftIds = findLeftIds(previous, next);
			if (leftIds.length === 0) return;
			void noticeLeftGenerations(leftIds, {
				signal,
				onOpen: (generation) =>
					void navigateRef.current(APP_PATHS.generations, {
						state: createHistoryLinkState(generation),
					}),
			});
		});
		return () => controller.abort();
	}, [queryClient]);

	if (!active || active.count === 0) return null;
	return (
		// On a phone the header has room for "1 run" only, the start of the link's name ("1 running"),
		// so what it shows still says what it counts, and is what a voice user would say to it.
		<Link
			to={APP_PATHS.generations}
			aria-label={activeGenerationsLabel({ count: active.count })}
			className="inline-flex items-center gap-1.5 rounded-full bg-accent-50 px-2.5 py-1 text-xs font-semibold text-accent-700 ring-1 ring-accent-200"
		>
			<Loader aria-hidden="true" className="size-3.5 animate-spin" />
			{active.count}
			<span className="sm:hidden">{activeGenerationsShortWord({ count: active.count })}</span>
			<span className="hidden sm:inline">{activeGenerationsWord({ count: active.count })}</span>
		</Link>
	);
}
