import type { AspectRatio } from "../../../../shared/generations/aspect-ratios";
import type {
	GenerationImage,
	GenerationModel,
	GenerationProgress,
	GenerationSettings,
} from "../../../../shared/generations/generation-responses";
import { generatorCancelled } from "../../../../shared/i18n/messages";
import type {
	GenerationParent,
	ReferenceInput,
	GenerationAction as StartedAction,
} from "../../../../shared/image-input/image-input";
import type { RequestedSettings } from "../settings/generation-choice";

/**
 * What a generation is made from: an image (an upload, or one of a generation's) and the action.
 * Vary and Upscale send only this (the server takes the prompt, ratio and model from the parent);
 * an edit sends it beside the form's prompt and settings, with the reference strength.
 */
export type ImageRequest =
	| {
			action: Exclude<StartedAction, "edit">;
			reference: { generationId: string; imageIndex: number };
			factor?: number;
	  }
	| { action: "edit"; reference: ReferenceInput; strength?: number };

/**
 * What Generate asks for: the prompt, the ratio and, once the models are known, the settings; and
 * the image it starts from, if any. Vary and Upscale carry the parent's prompt and ratio here for
 * the screen only.
 */
export type GeneratedRequest = {
	prompt: string;
	aspectRatio: AspectRatio;
	settings?: RequestedSettings;
	image?: ImageRequest;
	/** Add new results to…: the person's boards the generation goes on as it starts. */
	boards?: readonly string[];
};

/** The model and the settings the server made a generation with, the seed it used among them. */
export type GenerationRecipe = { model: GenerationModel; settings: GenerationSettings };

/** The start request is on its way. Times are epoch milliseconds. */
type StartingState = { phase: "starting"; request: GeneratedRequest; startedAt: number };

/** The server took the generation; it is polled until done. */
type FollowingState = {
	phase: "following";
	request: GeneratedRequest;
	startedAt: number;
	generationId: string;
	pollingUrl: string;
	/** Poll answers that said "not yet", which drive the progress; null until polling begins. */
	pendingPolls: number | null;
	/** Why the last poll failed while it is being retried; cleared by the next answer. */
	pollProblem: string | null;
	/** What the server said with its last "not yet" ("The image service is busy"), if anything. */
	serverNote: string | null;
	/** What is happening, as the last "not yet" reported it; absent from a server that says not. */
	report?: GenerationProgress | null;
	/** The bar as the flow worked it out from the reports (never backwards); absent: the schedule. */
	bar?: number;
	/** The model and seed the server answered with; absent from a server that names none. */
	recipe?: GenerationRecipe;
};

/** The images are ready; the times are the server's once its saved record is known. */
export type CompletedState = {
	phase: "completed";
	request: GeneratedRequest;
	generationId: string;
	images: GenerationImage[];
	startedAt: number;
	endedAt: number;
	recipe?: GenerationRecipe;
	/** What the saved record says of its family, for the preview; absent when it was not read. */
	family?: GenerationFamilyFacts;
};

/** What a generation's record says of its family: what it was made from, how many were made from it. */
export type GenerationFamilyFacts = {
	parent?: GenerationParent | null;
	childrenCount?: number;
};

/** Failed, cancelled, or refused before it started: the message says which. */
type FailedState = { phase: "failed"; request: GeneratedRequest | null; message: string };

/**
 * The generator's right panel and the generation it follows, by phase (SPEC.md section 4,
 * Generation flow): idle, starting, following, completed or failed.
 */
export type GenerationState =
	| { phase: "idle" }
	| StartingState
	| FollowingState
	| CompletedState
	| FailedState;

/** A generation on its way: the screen is busy. */
export type RunningState = StartingState | FollowingState;

export type GenerationAction =
	| { type: "started"; request: GeneratedRequest; startedAt: number }
	| { type: "accepted"; generationId: string; pollingUrl: string; recipe?: GenerationRecipe }
	| { type: "pollingStarted" }
	| {
			type: "resumed";
			request: GeneratedRequest;
			generationId: string;
			pollingUrl: string;
			startedAt: number;
			recipe?: GenerationRecipe;
	  }
	| {
			type: "pollPending";
			message: string | null;
			report?: GenerationProgress | null;
			bar?: number;
	  }
	| { type: "pollFailed"; message: string }
	| {
			type: "completed";
			images: GenerationImage[];
			startedAt: number | null;
			endedAt: number;
			/** The saved record's, which wins over what the start answered. */
			recipe?: GenerationRecipe;
			family?: GenerationFamilyFacts;
	  }
	| { type: "failed"; message: string }
	| { type: "rejected"; message: string }
	| { type: "cancelled" }
	| { type: "reset" };

export const INITIAL_GENERATION_STATE: GenerationState = { phase: "idle" };

export function isGenerationRunning(state: GenerationState): state is RunningState {
	return state.phase === "starting" || state.phase === "following";
}

/** When the generation on screen started and ended, for its elapsed time; null when unknown. */
export function readGenerationTimes(state: GenerationState): {
	startedAt: number | null;
	endedAt: number | null;
} {
	switch (state.phase) {
		case "starting":
		case "following":
			return { startedAt: state.startedAt, endedAt: null };
		case "completed":
			return { startedAt: state.startedAt, endedAt: state.endedAt };
		default:
			return { startedAt: null, endedAt: null };
	}
}

function reduceFollowing(state: FollowingState, action: GenerationAction): GenerationState {
	switch (action.type) {
		case "pollingStarted":
			return { ...state, pendingPolls: 0 };
		case "pollPending":
			return {
				...state,
				pendingPolls: (state.pendingPolls ?? 0) + 1,
				pollProblem: null,
				serverNote: action.message,
				report: action.report,
				bar: action.bar,
			};
		case "pollFailed":
			return { ...state, pollProblem: action.message };
		case "completed":
			return {
				phase: "completed",
				request: state.request,
				generationId: state.generationId,
				images: action.images,
				startedAt: action.startedAt ?? state.startedAt,
				endedAt: action.endedAt,
				recipe: action.recipe ?? state.recipe,
				family: action.family,
			};
		default:
			return state;
	}
}

/**
 * The next state. An action that does not fit the phase (a late answer for a generation that was
 * cancelled or reset) changes nothing.
 */
export function reduceGeneration(
	state: GenerationState,
	action: GenerationAction,
): GenerationState {
	switch (action.type) {
		case "started":
			// A start clears the previous error, images, polling URL, generation id and end time.
			return { phase: "starting", request: action.request, startedAt: action.startedAt };
		case "resumed":
			return {
				phase: "following",
				request: action.request,
				startedAt: action.startedAt,
				generationId: action.generationId,
				pollingUrl: action.pollingUrl,
				pendingPolls: 0,
				pollProblem: null,
				serverNote: null,
				recipe: action.recipe,
			};
		case "reset":
			return INITIAL_GENERATION_STATE;
		case "rejected":
			// Refused before anything started (signed out, invalid prompt): the message takes the
			// panel, and what was asked last stays for Try Again.
			if (isGenerationRunning(state)) return state;
			return {
				phase: "failed",
				request: state.phase === "idle" ? null : state.request,
				message: action.message,
			};
		case "failed":
		case "cancelled":
			if (!isGenerationRunning(state)) return state;
			return {
				phase: "failed",
				request: state.request,
				message: action.type === "failed" ? action.message : generatorCancelled(),
			};
		case "accepted":
			if (state.phase !== "starting") return state;
			return {
				phase: "following",
				request: state.request,
				startedAt: state.startedAt,
				generationId: action.generationId,
				pollingUrl: action.pollingUrl,
				pendingPolls: null,
				pollProblem: null,
				serverNote: null,
				recipe: action.recipe,
			};
		default:
			return state.phase === "following" ? reduceFollowing(state, action) : state;
	}
}
