import { HttpResponse, http } from "msw";
import { ASPECT_RATIO_VALUES, type AspectRatio } from "../../../shared/aspect-ratios";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/errors";
import type { Generation, GenerationStatus } from "../../../shared/generation-responses";
import { mswServer } from "../msw-server";
import { createTestGeneration, createTestGenerationId, createTestImages } from "./test-generations";

// A stand-in for the generations API at the network edge, for the generator's tests: the start
// call, the poll, the saved record and the list the generator looks at to pick a generation up.

/**
 * A generation still running on the server, started at 12:00:00 on 5 January 2025 (its saved
 * record says it completed at 12:00:09).
 */
export function createRunningGeneration(overrides: Partial<Generation> = {}): Generation {
	return createTestGeneration({
		prompt: "A lighthouse on a cliff at dusk",
		status: "running",
		images: [],
		created_at: "2025-01-05T12:00:00.000Z",
		completed_at: null,
		...overrides,
	});
}

/** One answer of `GET {pollingUrl}`: a poll body, an HTTP error, or no answer at all. */
export type PollStep =
	| { status: Exclude<GenerationStatus, "completed">; message?: string | null }
	| { status: "completed" }
	| { httpStatus: number }
	| { isNetworkError: true };

type StartAnswer =
	| { kind: "accepted"; pollingUrl?: string }
	| { kind: "refused"; code: ErrorCode; message?: string }
	| { kind: "raw"; status: number; body: Record<string, unknown> | null };

type FakeGenerationServerOptions = {
	/** How the start call answers; accepted with a polling URL unless the test says otherwise. */
	start?: StartAnswer;
	/** The start call waits for this before answering. */
	startGate?: Promise<void>;
	/** Poll answers in order; the last one repeats. Completed unless the test says otherwise. */
	polls?: PollStep[];
	/** Each poll waits for the gate of its number (0 is the first poll) before answering. */
	pollGates?: ReadonlyMap<number, Promise<void>>;
	/** Whether `GET /api/generations/:id` answers with the record; a 500 otherwise. */
	isRecordAvailable?: boolean;
	/** What the record's times say: created_at and completed_at. */
	recordTimes?: { createdAt: string; completedAt: string };
	/** The history's newest items, where the generator looks for one to pick up. */
	history?: Generation[];
	/** The provider `/api/config` names. */
	imageProvider?: string;
};

type CreateRequest = { prompt: unknown; aspectRatio: unknown };

function readCreateRequest(body: unknown): CreateRequest {
	if (typeof body !== "object" || body === null)
		return { prompt: undefined, aspectRatio: undefined };
	return {
		prompt: "prompt" in body ? body.prompt : undefined,
		aspectRatio: "aspectRatio" in body ? body.aspectRatio : undefined,
	};
}

function isAspectRatio(value: unknown): value is AspectRatio {
	return ASPECT_RATIO_VALUES.some((ratio) => ratio === value);
}

/**
 * Answers the generator's endpoints the way the server does. Each test creates its own and reads
 * back what the generator asked for.
 */
export function startFakeGenerationServer(options: FakeGenerationServerOptions = {}) {
	const id = createTestGenerationId();
	const pollingUrl = `/api/generations/${id}/status`;
	const state = {
		createRequests: [] as CreateRequest[],
		pollCount: 0,
		recordRequests: 0,
		listRequests: [] as URLSearchParams[],
		aspectRatio: "--ar 1:1" as AspectRatio,
		prompt: "",
	};
	const polls = options.polls ?? [{ status: "completed" }];

	function buildRecord(): Generation {
		const times = options.recordTimes ?? {
			createdAt: "2025-01-05T12:00:00.000Z",
			completedAt: "2025-01-05T12:00:03.250Z",
		};
		return createTestGeneration({
			id,
			prompt: state.prompt,
			aspect_ratio: state.aspectRatio,
			status: "completed",
			images: createTestImages(id, state.aspectRatio),
			created_at: times.createdAt,
			completed_at: times.completedAt,
		});
	}

	mswServer.use(
		http.get("*/api/config", () =>
			HttpResponse.json({ googleEnabled: false, imageProvider: options.imageProvider ?? "local" }),
		),
		http.get("*/api/generations", ({ request }) => {
			state.listRequests.push(new URL(request.url).searchParams);
			const items = options.history ?? [];
			return HttpResponse.json({ items, nextCursor: null, total: items.length, today: 0 });
		}),
		http.post("*/api/generations", async ({ request }) => {
			const body = readCreateRequest(await request.json().catch(() => null));
			state.createRequests.push(body);
			if (typeof body.prompt === "string") state.prompt = body.prompt;
			if (isAspectRatio(body.aspectRatio)) state.aspectRatio = body.aspectRatio;
			await options.startGate;
			const answer = options.start ?? { kind: "accepted" };
			if (answer.kind === "raw") return HttpResponse.json(answer.body, { status: answer.status });
			if (answer.kind === "refused") {
				return HttpResponse.json(
					{ success: false, error: errorBody(answer.code, answer.message) },
					{ status: ERRORS[answer.code].status },
				);
			}
			return HttpResponse.json(
				{ success: true, id, pollingUrl: answer.pollingUrl ?? pollingUrl },
				{ status: 201 },
			);
		}),
		http.get(`*/api/generations/:id/status`, async ({ params }) => {
			const number = state.pollCount;
			state.pollCount += 1;
			await options.pollGates?.get(number);
			const step = polls[Math.min(number, polls.length - 1)] ?? { status: "completed" };
			if ("isNetworkError" in step) return HttpResponse.error();
			if ("httpStatus" in step) {
				return HttpResponse.json(
					{ success: false, error: errorBody("SERVICE_UNAVAILABLE") },
					{ status: step.httpStatus },
				);
			}
			if (step.status === "completed") {
				const isOurs = params.id === id;
				const record = isOurs ? buildRecord() : undefined;
				const urls = record
					? record.images.map((image) => image.url)
					: createTestImages(String(params.id), "--ar 1:1").map((image) => image.url);
				return HttpResponse.json({ status: "completed", results: urls, message: null });
			}
			return HttpResponse.json({
				status: step.status,
				results: [],
				message: "message" in step ? (step.message ?? null) : null,
			});
		}),
		http.get(`*/api/generations/:id`, ({ params }) => {
			state.recordRequests += 1;
			if (options.isRecordAvailable === false) {
				return HttpResponse.json(
					{ success: false, error: errorBody("UNKNOWN_ERROR") },
					{ status: 500 },
				);
			}
			const resumed = options.history?.find((item) => item.id === params.id);
			if (resumed) {
				return HttpResponse.json({
					...resumed,
					status: "completed",
					images: createTestImages(resumed.id, resumed.aspect_ratio),
					completed_at: "2025-01-05T12:00:09.000Z",
				});
			}
			return HttpResponse.json(buildRecord());
		}),
	);

	return {
		generationId: id,
		pollingUrl,
		/** The bodies of the start calls, in order. */
		readCreateRequests: () => state.createRequests,
		readPollCount: () => state.pollCount,
		readRecordRequests: () => state.recordRequests,
		readListRequests: () => state.listRequests,
	};
}
