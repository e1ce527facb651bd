import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { fetchGeneration } from "../../../lib/generations/generations-requests";
import { createHistoryLinkState } from "../../../lib/generations/history-link";

/** The query parameter a push notification's click opens the history with (decision 028). */
const LINKED_GENERATION_PARAMETER = "generation";

/**
 * Turns `/generations?generation=<id>` (the link a push notification opens, with no page of
 * Atelier's to hand it a navigation state) into the request useRequestedResult shows: the
 * generation is read, the parameter dropped, and its result shown. One that is gone, or someone
 * else's, only drops the parameter.
 */
export function useLinkedResult(): void {
	const [searchParams] = useSearchParams();
	const navigate = useNavigate();
	const id = searchParams.get(LINKED_GENERATION_PARAMETER);

	useEffect(() => {
		if (!id) return;
		const controller = new AbortController();
		const rest = new URLSearchParams(searchParams);
		rest.delete(LINKED_GENERATION_PARAMETER);
		const search = rest.size > 0 ? `?${rest}` : "";
		fetchGeneration(id, controller.signal).then(
			(generation) =>
				void navigate({ search }, { replace: true, state: createHistoryLinkState(generation) }),
			() => {
				if (!controller.signal.aborted) void navigate({ search }, { replace: true });
			},
		);
		return () => controller.abort();
	}, [id, searchParams, navigate]);
}
