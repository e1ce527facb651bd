import type { AspectRatio } from "../../../shared/aspect-ratios";
import { GENERATION_MESSAGES } from "../../../shared/generation-flow";
import type { GenerationImage } from "../../../shared/generation-responses";
import { PROGRESS_STEPS, progressAfterPolls } from "../../../shared/progress";

export type GeneratedRequest = { prompt: string; aspectRatio: AspectRatio };

/** The state of the generator's right panel and of the generation it follows (SPEC.md section 4). */
export type GenerationState = {
	isLoading: boolean;
	progress: number;
	error: string | null;
	images: GenerationImage[];
	pollingUrl: string | null;
	generationId: string | null;
	/** What is being, or was last, generated: the results show it. */
	request: GeneratedRequest | null;
	/** Epoch milliseconds; the server's times once the saved record is known. */
	startedAt: number | null;
	endedAt: number | null;
	/** Poll answers that said "not yet", which drive the progress. */
	pendingPolls: number;
	/** Why the last poll failed while it is being retried; cleared by the next answer. */
	pollProblem: string | null;
	/** What the server said with its last "not yet" ("The image service is busy"), if anything. */
	serverNote: string | null;
};

export type GenerationAction =
	| { type: "started"; request: GeneratedRequest; startedAt: number }
	| { type: "accepted"; generationId: string; pollingUrl: string | null }
	| { type: "pollingStarted" }
	| {
			type: "resumed";
			request: GeneratedRequest;
			generationId: string;
			pollingUrl: string;
			startedAt: number;
	  }
	| { type: "pollPending"; message: string | null }
	| { type: "pollFailed"; message: string }
	| { type: "completed"; images: GenerationImage[]; startedAt: number | null; endedAt: number }
	| { type: "failed"; message: string }
	| { type: "rejected"; message: string }
	| { type: "cancelled" }
	| { type: "reset" };

export const INITIAL_GENERATION_STATE: GenerationState = {
	isLoading: false,
	progress: PROGRESS_STEPS.idle,
	error: null,
	images: [],
	pollingUrl: null,
	generationId: null,
	request: null,
	startedAt: null,
	endedAt: null,
	pendingPolls: 0,
	pollProblem: null,
	serverNote: null,
};

export function reduceGeneration(
	state: GenerationState,
	action: GenerationAction,
): GenerationState {
	switch (action.type) {
		case "started":
			// Starting clears the previous error, images, polling URL, generation id and end time.
			return {
				...INITIAL_GENERATION_STATE,
				isLoading: true,
				progress: PROGRESS_STEPS.starting,
				request: action.request,
				startedAt: action.startedAt,
			};
		case "accepted":
			return {
				...state,
				progress: PROGRESS_STEPS.accepted,
				generationId: action.generationId,
				pollingUrl: action.pollingUrl,
			};
		case "pollingStarted":
			return { ...state, progress: PROGRESS_STEPS.polling, pendingPolls: 0 };
		case "resumed":
			return {
				...INITIAL_GENERATION_STATE,
				isLoading: true,
				progress: PROGRESS_STEPS.polling,
				request: action.request,
				generationId: action.generationId,
				pollingUrl: action.pollingUrl,
				startedAt: action.startedAt,
			};
		case "pollPending": {
			const pendingPolls = state.pendingPolls + 1;
			return {
				...state,
				pendingPolls,
				progress: progressAfterPolls(pendingPolls),
				pollProblem: null,
				serverNote: action.message,
			};
		}
		case "pollFailed":
			return { ...state, pollProblem: action.message };
		case "completed":
			return {
				...state,
				isLoading: false,
				progress: PROGRESS_STEPS.done,
				images: action.images,
				startedAt: action.startedAt ?? state.startedAt,
				endedAt: action.endedAt,
				pollProblem: null,
				serverNote: null,
			};
		case "failed":
			return {
				...state,
				isLoading: false,
				progress: PROGRESS_STEPS.failed,
				error: action.message,
				pollProblem: null,
				serverNote: null,
			};
		case "rejected":
			// Refused before anything started (signed out, invalid prompt): nothing else changes.
			return { ...state, error: action.message };
		case "cancelled":
			return {
				...state,
				isLoading: false,
				progress: PROGRESS_STEPS.idle,
				error: GENERATION_MESSAGES.cancelled,
				pollProblem: null,
				serverNote: null,
			};
		case "reset":
			return INITIAL_GENERATION_STATE;
	}
}
