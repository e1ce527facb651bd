import { useQueryClient } from "@tanstack/react-query";
import { Loader } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router";
import { followActiveGenerations, useActiveGenerations } from "../lib/active-generations";

/**
 * "1 running" in the header: the person's queued and running generations, wherever they were
 * started, linking to the history. Nothing while there are none. It runs the one poll that keeps
 * them current (lib/active-generations.ts).
 */
export function ActiveGenerationsBadge() {
	const queryClient = useQueryClient();
	const active = useActiveGenerations();

	useEffect(() => {
		const controller = new AbortController();
		void followActiveGenerations(queryClient, controller.signal);
		return () => controller.abort();
	}, [queryClient]);

	if (!active || active.count === 0) return null;
	return (
		// On a phone the header has room for "1 run" only, the start of the link's name ("1 running"),
		// so what it shows still says what it counts, and is what a voice user would say to it.
		<Link
			to="/generations"
			aria-label={`${active.count} running`}
			className="inline-flex items-center gap-1.5 rounded-full bg-accent-50 px-2.5 py-1 text-xs font-semibold text-accent-700 ring-1 ring-accent-200"
		>
			<Loader aria-hidden="true" className="size-3.5 animate-spin" />
			{active.count}
			<span className="sm:hidden">run</span>
			<span className="hidden sm:inline">running</span>
		</Link>
	);
}
