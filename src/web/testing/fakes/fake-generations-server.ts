import { delay, HttpResponse, http } from "msw";
import { formatGroupDate } from "../../../shared/date-groups";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/errors";
import type {
	Generation,
	GenerationPage,
	PollResponse,
} from "../../../shared/generation-responses";
import { mswServer } from "../msw-server";
import { createGate } from "./test-generations";

type FakeGenerationsServerOptions = {
	/** The history, in any order; the fake answers newest first like the server. */
	generations?: Generation[];
	/** When set, every list request fails with this error until `setListFailure(undefined)`. */
	listFailure?: ErrorCode;
};

type RecordedRequest = { method: string; path: string; search: URLSearchParams };

function sortNewestFirst(items: Generation[]): Generation[] {
	return [...items].sort(
		(left, right) =>
			right.created_at.localeCompare(left.created_at) || right.id.localeCompare(left.id),
	);
}

function answerError(code: ErrorCode) {
	return HttpResponse.json(
		{ success: false, error: errorBody(code) },
		{ status: ERRORS[code].status },
	);
}

/**
 * Answers the generations API at the network edge the way the server does: cursor pages newest
 * first with the total and today's count, one item, its polling URL, and delete. Each test creates
 * its own and changes it through the returned controls.
 */
export function startFakeGenerationsServer(options: FakeGenerationsServerOptions = {}) {
	const state = {
		generations: sortNewestFirst(options.generations ?? []),
		listFailure: options.listFailure as ErrorCode | undefined,
		deleteFailure: undefined as ErrorCode | undefined,
		listGate: undefined as Promise<void> | undefined,
		deleteGate: undefined as Promise<void> | undefined,
		requests: [] as RecordedRequest[],
	};

	const record = (request: Request) => {
		const url = new URL(request.url);
		state.requests.push({ method: request.method, path: url.pathname, search: url.searchParams });
	};
	const find = (id: string) => state.generations.find((item) => item.id === id);
	const hold = (gateName: "listGate" | "deleteGate") => {
		const gate = createGate();
		state[gateName] = gate.opened;
		return () => {
			state[gateName] = undefined;
			gate.release();
		};
	};

	mswServer.use(
		http.get("*/api/generations", async ({ request }) => {
			record(request);
			if (state.listGate) await state.listGate;
			if (state.listFailure) return answerError(state.listFailure);
			const url = new URL(request.url);
			const limit = Number(url.searchParams.get("limit") ?? 24);
			const timeZone = url.searchParams.get("timeZone") ?? "UTC";
			const cursor = url.searchParams.get("cursor");
			// The real cursor is the last item's (created_at, id); an index stands in for it here.
			const start = cursor ? Number(cursor.replace("after-", "")) : 0;
			const items = state.generations.slice(start, start + limit);
			const end = start + items.length;
			const todayLabel = formatGroupDate(new Date(), { timeZone });
			const page: GenerationPage = {
				items,
				nextCursor: end < state.generations.length ? `after-${end}` : null,
				total: state.generations.length,
				today: state.generations.filter(
					(item) => formatGroupDate(item.created_at, { timeZone }) === todayLabel,
				).length,
			};
			return HttpResponse.json(page);
		}),
		http.get("*/api/generations/:id/status", async ({ request, params }) => {
			record(request);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			// Like the server's long poll, but short, so tests need not wait 1.5 s per poll.
			if (generation.status === "queued" || generation.status === "running") await delay(20);
			return HttpResponse.json({
				status: generation.status,
				results: generation.images.map((image) => image.url),
				message: generation.status === "failed" ? (generation.error ?? "Generation failed") : null,
			} satisfies PollResponse);
		}),
		http.get("*/api/generations/:id", ({ request, params }) => {
			record(request);
			const generation = find(String(params.id));
			return generation ? HttpResponse.json(generation) : answerError("NOT_FOUND");
		}),
		http.delete("*/api/generations/:id", async ({ request, params }) => {
			record(request);
			if (state.deleteGate) await state.deleteGate;
			if (state.deleteFailure) return answerError(state.deleteFailure);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			state.generations = state.generations.filter((item) => item.id !== generation.id);
			return HttpResponse.json({ success: true });
		}),
	);

	return {
		/** Requests made so far, optionally only one method and path. */
		readRequests: (method?: string, path?: string) =>
			state.requests.filter(
				(request) =>
					(method === undefined || request.method === method) &&
					(path === undefined || request.path === path),
			),
		readGenerations: () => state.generations,
		setListFailure: (code: ErrorCode | undefined) => {
			state.listFailure = code;
		},
		setDeleteFailure: (code: ErrorCode | undefined) => {
			state.deleteFailure = code;
		},
		/** Holds list requests until the returned function is called. */
		holdList: () => hold("listGate"),
		/** Holds delete requests until the returned function is called. */
		holdDelete: () => hold("deleteGate"),
		/** Adds a generation, as if someone made one elsewhere. */
		addGeneration: (generation: Generation) => {
			state.generations = sortNewestFirst([...state.generations, generation]);
		},
		/** Replaces a stored generation, as the server's worker would when it finishes. */
		updateGeneration: (generation: Generation) => {
			state.generations = state.generations.map((item) =>
				item.id === generation.id ? generation : item,
			);
		},
	};
}
