import { delay, HttpResponse, http } from "msw";
import { ASPECT_RATIO_VALUES, type AspectRatio } from "../../../shared/aspect-ratios";
import { formatGroupDate } from "../../../shared/date-groups";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/errors";
import type {
	Generation,
	GenerationPage,
	PollResponse,
} from "../../../shared/generation-responses";
import { mswServer } from "../msw-server";
import { createGate, createTestGeneration } from "./test-generations";

type FakeGenerationsServerOptions = {
	/** The history, in any order; the fake answers newest first like the server. */
	generations?: Generation[];
	/** When set, every list request fails with this error until `setListFailure(undefined)`. */
	listFailure?: ErrorCode;
};

type Failure = "list" | "delete" | "bulkDelete" | "favorite" | "create";

type RecordedRequest = { method: string; path: string; search: URLSearchParams; body?: unknown };

function sortNewestFirst(items: Generation[]): Generation[] {
	return [...items].sort(
		(left, right) =>
			right.created_at.localeCompare(left.created_at) || right.id.localeCompare(left.id),
	);
}

function isAspectRatio(value: unknown): value is AspectRatio {
	return ASPECT_RATIO_VALUES.some((ratio) => ratio === value);
}

function readIds(body: unknown): string[] | undefined {
	if (typeof body !== "object" || body === null || !("ids" in body)) return undefined;
	const { ids } = body;
	return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? ids : undefined;
}

/** The list filters of the API: the search (any case, anywhere in the prompt), ratio, favourites, owner. */
function matches(item: Generation, search: URLSearchParams): boolean {
	const text = (search.get("q") ?? "").trim().toLowerCase();
	if (!item.prompt.toLowerCase().includes(text)) return false;
	const ratio = search.get("ratio");
	if (ratio && item.aspect_ratio !== ratio) return false;
	if (search.get("favorites") === "true" && !item.is_favorite) return false;
	const owner = search.get("owner");
	if (owner && item.owner_email?.toLowerCase() !== owner.toLowerCase()) return false;
	return true;
}

function answerError(code: ErrorCode) {
	return HttpResponse.json(
		{ success: false, error: errorBody(code) },
		{ status: ERRORS[code].status },
	);
}

/**
 * Answers the generations API at the network edge the way the server does: cursor pages newest
 * first of what matches the search and filters, with the total and today's count of those; one
 * item, its polling URL, delete and bulk delete, the favourite star, and a new generation (Rerun).
 * Each test creates its own and changes it through the returned controls.
 */
export function startFakeGenerationsServer(options: FakeGenerationsServerOptions = {}) {
	const state = {
		generations: sortNewestFirst(options.generations ?? []),
		failures: new Map<Failure, ErrorCode>(
			options.listFailure ? [["list", options.listFailure]] : [],
		),
		listGate: undefined as Promise<void> | undefined,
		deleteGate: undefined as Promise<void> | undefined,
		favoriteGate: undefined as Promise<void> | undefined,
		requests: [] as RecordedRequest[],
	};

	const record = (request: Request, body?: unknown) => {
		const url = new URL(request.url);
		state.requests.push({
			method: request.method,
			path: url.pathname,
			search: url.searchParams,
			body,
		});
	};
	const find = (id: string) => state.generations.find((item) => item.id === id);
	const hold = (gateName: "listGate" | "deleteGate" | "favoriteGate") => {
		const gate = createGate();
		state[gateName] = gate.opened;
		return () => {
			state[gateName] = undefined;
			gate.release();
		};
	};

	/** Makes every request of one kind fail with `code`, or answer again with undefined. */
	const setFailure = (kind: Failure, code: ErrorCode | undefined) => {
		if (code) state.failures.set(kind, code);
		else state.failures.delete(kind);
	};

	mswServer.use(
		http.get("*/api/generations", async ({ request }) => {
			record(request);
			if (state.listGate) await state.listGate;
			const failure = state.failures.get("list");
			if (failure) return answerError(failure);
			const url = new URL(request.url);
			const limit = Number(url.searchParams.get("limit") ?? 24);
			const timeZone = url.searchParams.get("timeZone") ?? "UTC";
			const cursor = url.searchParams.get("cursor");
			const ratio = url.searchParams.get("ratio");
			if (ratio !== null && !isAspectRatio(ratio)) return answerError("VALIDATION_ERROR");
			const matching = state.generations.filter((item) => matches(item, url.searchParams));
			// The real cursor is the last item's (created_at, id); an index stands in for it here.
			const start = cursor ? Number(cursor.replace("after-", "")) : 0;
			const items = matching.slice(start, start + limit);
			const end = start + items.length;
			const todayLabel = formatGroupDate(new Date(), { timeZone });
			const page: GenerationPage = {
				items,
				nextCursor: end < matching.length ? `after-${end}` : null,
				total: matching.length,
				today: matching.filter(
					(item) => formatGroupDate(item.created_at, { timeZone }) === todayLabel,
				).length,
			};
			return HttpResponse.json(page);
		}),
		http.post("*/api/generations", async ({ request }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			const failure = state.failures.get("create");
			if (failure) return answerError(failure);
			const prompt =
				typeof body === "object" && body !== null && "prompt" in body ? body.prompt : undefined;
			const aspectRatio =
				typeof body === "object" && body !== null && "aspectRatio" in body
					? body.aspectRatio
					: undefined;
			if (typeof prompt !== "string" || !isAspectRatio(aspectRatio)) {
				return answerError("VALIDATION_ERROR");
			}
			const created = createTestGeneration({
				prompt,
				aspect_ratio: aspectRatio,
				status: "queued",
				images: [],
				completed_at: null,
			});
			state.generations = sortNewestFirst([...state.generations, created]);
			return HttpResponse.json(
				{ success: true, id: created.id, pollingUrl: created.polling_url },
				{ status: 201 },
			);
		}),
		http.post("*/api/generations/bulk-delete", async ({ request }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			if (state.deleteGate) await state.deleteGate;
			const failure = state.failures.get("bulkDelete");
			if (failure) return answerError(failure);
			const ids = readIds(body);
			if (!ids || ids.length === 0 || ids.length > 200) return answerError("VALIDATION_ERROR");
			if (!ids.every((id) => find(id))) return answerError("NOT_FOUND");
			state.generations = state.generations.filter((item) => !ids.includes(item.id));
			return HttpResponse.json({ success: true, deleted: ids.length });
		}),
		http.put("*/api/generations/:id/favorite", async ({ request, params }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			if (state.favoriteGate) await state.favoriteGate;
			const failure = state.failures.get("favorite");
			if (failure) return answerError(failure);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			const favorite =
				typeof body === "object" && body !== null && "favorite" in body ? body.favorite : undefined;
			if (typeof favorite !== "boolean") return answerError("VALIDATION_ERROR");
			state.generations = state.generations.map((item) =>
				item.id === generation.id ? { ...item, is_favorite: favorite } : item,
			);
			return HttpResponse.json({ success: true, favorite });
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
			const failure = state.failures.get("delete");
			if (failure) return answerError(failure);
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
		setFailure,
		setListFailure: (code: ErrorCode | undefined) => setFailure("list", code),
		setDeleteFailure: (code: ErrorCode | undefined) => setFailure("delete", code),
		/** Holds list requests until the returned function is called. */
		holdList: () => hold("listGate"),
		/** Holds delete and bulk delete requests until the returned function is called. */
		holdDelete: () => hold("deleteGate"),
		/** Holds favourite changes until the returned function is called. */
		holdFavorite: () => hold("favoriteGate"),
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
