import { describe, expect, it } from "vitest";
import {
	type GenerationAction,
	type GenerationState,
	INITIAL_GENERATION_STATE,
	isGenerationRunning,
	readGenerationTimes,
	reduceGeneration,
} from "./generation-state";
import { readProgress } from "./read-progress";

const request = { prompt: "A red fox", aspectRatio: "--ar 1:1" } as const;
const image = {
	url: "/a.png",
	width: 1024,
	height: 1024,
	thumbnailUrl: "/a-thumb.webp",
	thumbnailWidth: 384,
	thumbnailHeight: 384,
};

function replay(actions: GenerationAction[], from: GenerationState = INITIAL_GENERATION_STATE) {
	const states: GenerationState[] = [];
	let state = from;
	for (const action of actions) {
		state = reduceGeneration(state, action);
		states.push(state);
	}
	return states;
}

function readServerNote(state: GenerationState): string | null {
	return state.phase === "following" ? state.serverNote : null;
}

const completed: GenerationState = {
	phase: "completed",
	request,
	generationId: "old",
	images: [image],
	startedAt: 1_000,
	endedAt: 5_000,
};

describe("the generation flow's state", () => {
	it("moves through 5, 15, 20, 28, 36 and 100 as the flow goes", () => {
		const states = replay([
			{ type: "started", request, startedAt: 1_000 },
			{ type: "accepted", generationId: "g1", pollingUrl: "/poll" },
			{ type: "pollingStarted" },
			{ type: "pollPending", message: null },
			{ type: "pollPending", message: "The image service is busy" },
			{ type: "completed", images: [image], startedAt: 900, endedAt: 4_200 },
		]);

		expect(states.map(readProgress)).toEqual([5, 15, 20, 28, 36, 100]);
		expect(states.map(isGenerationRunning)).toEqual([true, true, true, true, true, false]);
		expect(states.map(readServerNote)).toEqual([
			null,
			null,
			null,
			null,
			"The image service is busy",
			null,
		]);
		expect(states[2]).toMatchObject({
			phase: "following",
			generationId: "g1",
			pollingUrl: "/poll",
		});
		expect(states.at(-1)).toEqual({
			phase: "completed",
			request,
			images: [image],
			generationId: "g1",
			startedAt: 900,
			endedAt: 4_200,
		});
		expect(states.map(readGenerationTimes)).toEqual([
			...Array.from({ length: 5 }, () => ({ startedAt: 1_000, endedAt: null })),
			{ startedAt: 900, endedAt: 4_200 },
		]);
	});

	it("clears the previous error, images, polling URL, generation id and end time on start", () => {
		const failed: GenerationState = { phase: "failed", request, message: "Generation failed" };

		for (const previous of [completed, failed]) {
			const [started] = replay([{ type: "started", request, startedAt: 7_000 }], previous);

			expect(started).toEqual({ phase: "starting", request, startedAt: 7_000 });
			expect(started && readProgress(started)).toBe(5);
		}
	});

	it("shows a failure and drops the progress to 0", () => {
		const states = replay([
			{ type: "started", request, startedAt: 0 },
			{ type: "accepted", generationId: "g1", pollingUrl: "/poll" },
			{ type: "pollingStarted" },
			{ type: "pollFailed", message: "Polling HTTP 503" },
			{ type: "failed", message: "Generation timed out" },
		]);

		expect(states[3]).toMatchObject({ phase: "following", pollProblem: "Polling HTTP 503" });
		const failed = states.at(-1);
		expect(failed).toEqual({ phase: "failed", request, message: "Generation timed out" });
		expect(failed && readProgress(failed)).toBe(0);
		expect(failed && isGenerationRunning(failed)).toBe(false);
	});

	it("cancels with Request was cancelled, and resets to the start", () => {
		const [, cancelled, reset] = replay([
			{ type: "started", request, startedAt: 0 },
			{ type: "cancelled" },
			{ type: "reset" },
		]);

		expect(cancelled).toEqual({ phase: "failed", request, message: "Request was cancelled" });
		expect(cancelled && readProgress(cancelled)).toBe(0);
		expect(reset).toEqual(INITIAL_GENERATION_STATE);
		expect(reset && readProgress(reset)).toBe(0);
	});

	it("picks a generation up at the polling stage", () => {
		const [resumed] = replay([
			{ type: "resumed", request, generationId: "g2", pollingUrl: "/poll2", startedAt: 300 },
		]);

		expect(resumed).toMatchObject({
			phase: "following",
			generationId: "g2",
			pollingUrl: "/poll2",
			startedAt: 300,
			request,
		});
		expect(resumed && readProgress(resumed)).toBe(20);
		expect(resumed && isGenerationRunning(resumed)).toBe(true);
	});

	it("shows a refusal in place of the panel, keeping what was asked last for Try Again", () => {
		const message = "Please sign in to generate images.";

		expect(replay([{ type: "rejected", message }])).toEqual([
			{ phase: "failed", request: null, message },
		]);
		expect(replay([{ type: "rejected", message }], completed)).toEqual([
			{ phase: "failed", request, message },
		]);
	});

	it("ignores what does not fit the phase: a refusal while busy, a late answer after a cancel", () => {
		const [starting] = replay([{ type: "started", request, startedAt: 0 }]);
		if (!starting) throw new Error("no state");
		expect(reduceGeneration(starting, { type: "rejected", message: "Nope" })).toBe(starting);

		const [cancelled] = replay([{ type: "cancelled" }], starting);
		if (!cancelled) throw new Error("no state");
		for (const late of [
			{ type: "accepted", generationId: "g1", pollingUrl: "/poll" },
			{ type: "pollPending", message: null },
			{ type: "completed", images: [image], startedAt: 0, endedAt: 1 },
			{ type: "failed", message: "Generation failed" },
		] satisfies GenerationAction[]) {
			expect(reduceGeneration(cancelled, late)).toBe(cancelled);
		}
	});
});
