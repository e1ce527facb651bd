import { useCallback, useEffect, useReducer, useRef } from "react";
import { errorNetworkError } from "../../../../shared/i18n/messages";
import { trackEvent } from "../../../lib/ui/analytics";
import {
	readDismissedGenerations,
	rememberDismissedGeneration,
} from "../flow/dismissed-generations";
import {
	type GeneratedRequest,
	type GenerationAction,
	type GenerationState,
	INITIAL_GENERATION_STATE,
	isGenerationRunning,
	reduceGeneration,
} from "../flow/generation-state";
import { loadGenerationFlow } from "./generation-code";

type UseGeneratorOptions = {
	isSignedIn: boolean;
	isAuthLoading: boolean;
	/** Called when a generation started earlier is picked up, so the form can show its prompt. */
	onResume: (request: GeneratedRequest) => void;
};

type Generator = {
	state: GenerationState;
	generate: (request: GeneratedRequest) => void;
	/** Shows a message without starting anything: signed out, invalid prompt. */
	reject: (message: string) => void;
	cancel: () => void;
	reset: () => void;
};

/** The generation flow of SPEC.md section 4: start, follow, cancel, reset and pick up again. */
export function useGenerator({
	isSignedIn,
	isAuthLoading,
	onResume,
}: UseGeneratorOptions): Generator {
	const [state, dispatch] = useReducer(reduceGeneration, INITIAL_GENERATION_STATE);
	const followingRef = useRef<AbortController | null>(null);
	// Event handlers and the resume lookup read the latest state without re-subscribing.
	const stateRef = useRef(state);
	const onResumeRef = useRef(onResume);
	useEffect(() => {
		stateRef.current = state;
		onResumeRef.current = onResume;
	});

	const dispatchAndTrack = useCallback((action: GenerationAction) => {
		dispatch(action);
		if (action.type === "completed") {
			trackEvent("generation_completed", { imageCount: action.images.length });
		} else if (action.type === "failed") {
			trackEvent("generation_failed", { message: action.message });
		}
	}, []);

	const stopFollowing = useCallback(() => {
		followingRef.current?.abort();
		followingRef.current = null;
	}, []);

	const startFollowing = useCallback((): AbortSignal => {
		followingRef.current?.abort();
		const controller = new AbortController();
		followingRef.current = controller;
		return controller.signal;
	}, []);

	const generate = useCallback(
		(request: GeneratedRequest) => {
			if (isGenerationRunning(stateRef.current)) return;
			const signal = startFollowing();
			// Progress 5 and "Generating..." at once, while the flow's code may still be loading.
			dispatch({ type: "started", request, startedAt: Date.now() });
			trackEvent("generation_started", {
				aspectRatio: request.aspectRatio,
				promptLength: request.prompt.length,
			});
			loadGenerationFlow().then(
				({ startAndFollowGeneration }) => {
					if (!signal.aborted) void startAndFollowGeneration(request, dispatchAndTrack, signal);
				},
				() => {
					if (!signal.aborted) {
						dispatchAndTrack({ type: "failed", message: errorNetworkError() });
					}
				},
			);
		},
		[dispatchAndTrack, startFollowing],
	);

	const reject = useCallback((message: string) => dispatch({ type: "rejected", message }), []);

	const forgetCurrent = useCallback(() => {
		const state = stateRef.current;
		if (state.phase === "following") rememberDismissedGeneration(state.generationId);
	}, []);

	const cancel = useCallback(() => {
		if (!isGenerationRunning(stateRef.current)) return;
		forgetCurrent();
		stopFollowing();
		dispatch({ type: "cancelled" });
		trackEvent("generation_cancelled");
	}, [forgetCurrent, stopFollowing]);

	const reset = useCallback(() => {
		forgetCurrent();
		stopFollowing();
		dispatch({ type: "reset" });
	}, [forgetCurrent, stopFollowing]);

	// Coming back to the generator (a reload, another screen, another tab) while a generation is
	// still queued or running shows it in progress again, followed from the server.
	useEffect(() => {
		if (!isSignedIn) return;
		const lookup = new AbortController();
		loadGenerationFlow()
			.then(({ resumeGeneration }) =>
				resumeGeneration({
					skipIds: readDismissedGenerations(),
					lookupSignal: lookup.signal,
					// Something started meanwhile wins over a generation from earlier.
					shouldResume: () => !isGenerationRunning(stateRef.current),
					onResume: (request) => {
						onResumeRef.current(request);
						trackEvent("generation_resumed");
						return startFollowing();
					},
					dispatch: dispatchAndTrack,
				}),
			)
			.catch(() => {
				// Nothing to pick up is the usual answer; failing to look is no worse than that.
			});
		return () => lookup.abort();
	}, [isSignedIn, dispatchAndTrack, startFollowing]);

	// Signing out drops what belonged to the previous account.
	const wasSignedInRef = useRef(isSignedIn);
	useEffect(() => {
		if (isAuthLoading) return;
		if (wasSignedInRef.current && !isSignedIn) {
			stopFollowing();
			dispatch({ type: "reset" });
		}
		wasSignedInRef.current = isSignedIn;
	}, [isSignedIn, isAuthLoading, stopFollowing]);

	useEffect(() => stopFollowing, [stopFollowing]);

	return { state, generate, reject, cancel, reset };
}
