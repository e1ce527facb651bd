import { describe, expect, it } from "vitest";
import {
	type GenerationAction,
	type GenerationState,
	INITIAL_GENERATION_STATE,
	reduceGeneration,
} from "./generation-state";

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

		expect(states.map((state) => state.progress)).toEqual([5, 15, 20, 28, 36, 100]);
		expect(states.map((state) => state.isLoading)).toEqual([true, true, true, true, true, false]);
		expect(states.map((state) => state.serverNote)).toEqual([
			null,
			null,
			null,
			null,
			"The image service is busy",
			null,
		]);
		expect(states.at(-1)).toMatchObject({
			images: [image],
			generationId: "g1",
			pollingUrl: "/poll",
			startedAt: 900,
			endedAt: 4_200,
		});
	});

	it("clears the previous error, images, polling URL, generation id and end time on start", () => {
		const previous: GenerationState = {
			...INITIAL_GENERATION_STATE,
			error: "Generation failed",
			images: [image],
			pollingUrl: "/old",
			generationId: "old",
			endedAt: 5_000,
			pollProblem: "Polling HTTP 503",
		};

		const [started] = replay([{ type: "started", request, startedAt: 7_000 }], previous);

		expect(started).toEqual({
			...INITIAL_GENERATION_STATE,
			isLoading: true,
			progress: 5,
			request,
			startedAt: 7_000,
		});
	});

	it("shows a failure and drops the progress to 0", () => {
		const states = replay([
			{ type: "started", request, startedAt: 0 },
			{ type: "accepted", generationId: "g1", pollingUrl: "/poll" },
			{ type: "pollingStarted" },
			{ type: "pollFailed", message: "Polling HTTP 503" },
			{ type: "failed", message: "Generation timed out" },
		]);

		expect(states[3]?.pollProblem).toBe("Polling HTTP 503");
		expect(states.at(-1)).toMatchObject({
			isLoading: false,
			progress: 0,
			error: "Generation timed out",
			pollProblem: null,
		});
	});

	it("cancels with Request was cancelled, and resets to the start", () => {
		const [, cancelled, reset] = replay([
			{ type: "started", request, startedAt: 0 },
			{ type: "cancelled" },
			{ type: "reset" },
		]);

		expect(cancelled).toMatchObject({
			isLoading: false,
			progress: 0,
			error: "Request was cancelled",
		});
		expect(reset).toEqual(INITIAL_GENERATION_STATE);
	});

	it("picks a generation up at the polling stage", () => {
		const [resumed] = replay([
			{ type: "resumed", request, generationId: "g2", pollingUrl: "/poll2", startedAt: 300 },
		]);

		expect(resumed).toMatchObject({
			isLoading: true,
			progress: 20,
			generationId: "g2",
			pollingUrl: "/poll2",
			startedAt: 300,
			request,
		});
	});

	it("shows a refusal without touching anything else", () => {
		const previous: GenerationState = { ...INITIAL_GENERATION_STATE, images: [image], request };

		const [rejected] = replay(
			[{ type: "rejected", message: "Please sign in to generate images." }],
			previous,
		);

		expect(rejected).toEqual({ ...previous, error: "Please sign in to generate images." });
	});
});
