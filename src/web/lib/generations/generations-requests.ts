// Every call the browser makes to the generations API, each wrapped once, for both features (the
// generator and the history). Loaded on demand only: it parses with zod/mini, which the first page
// does without (docs/decisions/005-first-load-budget.md).

import { z } from "zod/mini";
import type { CreateGenerationRequestSchema } from "../../../shared/generations/create-generation-request";
import type { PollAnswer } from "../../../shared/generations/generation-answers";
import {
	type ActiveGenerations,
	ActiveGenerationsSchema,
	CreateGenerationResponseSchema,
	type Generation,
	type GenerationFamily,
	GenerationFamilySchema,
	type GenerationModel,
	type GenerationPage,
	GenerationPageSchema,
	GenerationSchema,
	type GenerationSettings,
	PollAnswerSchema,
} from "../../../shared/generations/generation-responses";
import type {
	GenerationIdsRequest,
	ListGenerationsQuerySchema,
	SetFavoriteRequest,
} from "../../../shared/generations/generations";
import {
	BulkDeleteResponseSchema,
	SetFavoriteResponseSchema,
} from "../../../shared/history/history-responses";
import { ApiError, parseApiAnswer, requestApi } from "../api/api-client";
import { fetchApiJson } from "../api/api-fetch";

function generationPath(id: string): string {
	return `/api/generations/${encodeURIComponent(id)}`;
}

/**
 * What a start sends: the prompt and ratio, and optionally the model and its settings. Without
 * `seed` (or with null) the server draws a random one; without `model` it uses the default.
 * Made from an image: the `reference` (an upload, or an image of a generation counted from 0), the
 * `action` and its `strength` or `factor`; Vary and Upscale leave the prompt and ratio out, and the
 * server takes them from the parent.
 */
export type StartGenerationRequest = Omit<
	z.input<typeof CreateGenerationRequestSchema>,
	"factor"
> & {
	/** One of the factors the models offered list (numbers there); the server holds it to 2 or 4. */
	factor?: number;
};

/**
 * `POST /api/generations`. It failed when the HTTP status is not ok or success is not true
 * (SPEC.md section 7); both throw an ApiError, with the server's error body when it sent one. The
 * answer names the model and the settings, the seed drawn among them, when the server says them.
 */
export async function startGeneration(
	request: StartGenerationRequest,
	signal?: AbortSignal,
): Promise<{
	id: string;
	pollingUrl: string | null;
	model?: GenerationModel;
	settings?: GenerationSettings;
}> {
	const answer = await fetchApiJson("/api/generations", {
		method: "POST",
		body: JSON.stringify(request),
		signal,
	});
	const created = parseApiAnswer(CreateGenerationResponseSchema, answer);
	if (!created.success) {
		throw new ApiError({ kind: "server", ...created.error, status: answer.status });
	}
	// An empty polling URL is as good as none: the flow reports "No polling URL provided".
	return {
		id: created.id,
		pollingUrl: created.pollingUrl || null,
		model: created.model,
		settings: created.settings,
	};
}

/**
 * One `GET {pollingUrl}`: the server holds it until the generation changes or about 1.5 s pass.
 * With `after`, the last answer's version, a change that came between two polls is answered at
 * once. The answer is read in the wider shape of SPEC.md section 3, which this server's answer is
 * one case of; `readPollOutcome` (shared/generations/generation-answers.ts) says what it means.
 */
export function pollGenerationStatus(
	pollingUrl: string,
	signal?: AbortSignal,
	after?: string,
): Promise<PollAnswer> {
	const url = after
		? `${pollingUrl}${pollingUrl.includes("?") ? "&" : "?"}after=${encodeURIComponent(after)}`
		: pollingUrl;
	return requestApi(url, PollAnswerSchema, { signal });
}

/** The saved record: images with their sizes and thumbnails, and the server's start and end times. */
export function fetchGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
	return requestApi(generationPath(id), GenerationSchema, { signal });
}

/** Where the query cache keeps each image's family: a new generation made from one is news to it. */
export const FAMILY_QUERY_PREFIX = ["generation-family"] as const;

/**
 * `GET /api/generations/:id/family?imageIndex=N`: the generation it was made from (null when none,
 * or deleted) and those made from its image N (counted from 0), newest first.
 */
export function fetchGenerationFamily(
	id: string,
	imageIndex: number,
	signal?: AbortSignal,
): Promise<GenerationFamily> {
	return requestApi(
		`${generationPath(id)}/family?imageIndex=${imageIndex}`,
		GenerationFamilySchema,
		{ signal },
	);
}

/**
 * `GET /api/generations/active`: the person's queued and running generations. With `after` (the
 * last answer's version) and `waitMs`, the server holds the answer until something changes.
 */
export function fetchActiveGenerations(options: {
	after?: string;
	waitMs?: number;
	signal?: AbortSignal;
}): Promise<ActiveGenerations> {
	const params = new URLSearchParams();
	if (options.after) params.set("after", options.after);
	if (options.waitMs) params.set("wait", String(options.waitMs));
	const query = params.size > 0 ? `?${params}` : "";
	return requestApi(`/api/generations/active${query}`, ActiveGenerationsSchema, {
		signal: options.signal,
	});
}

/** `GET /api/generations`'s filters as the server reads them. */
type ListGenerationsQuery = z.output<typeof ListGenerationsQuerySchema>;

/**
 * What the history is narrowed to; every part is optional and they combine. Each is one of the
 * list's query parameters, under the name the screens give it.
 */
type GenerationsQuery = {
	/** Words the prompt contains (`q`). */
	search?: ListGenerationsQuery["q"];
	aspectRatio?: ListGenerationsQuery["ratio"] | null;
	/** The id of the model the generations were made with (`model`). */
	modelId?: ListGenerationsQuery["model"];
	isFavoritesOnly?: ListGenerationsQuery["favorites"];
	/** The owner's e-mail: the administrator's filter by person (`owner`). */
	ownerEmail?: ListGenerationsQuery["owner"];
	/** A board's page: what is on it (`board`). */
	boardId?: ListGenerationsQuery["board"];
	/** The id of the style the generations were made with (`style`). */
	styleId?: ListGenerationsQuery["style"];
	/** The id of the batch the generations were started in together (`batch`). */
	batchId?: ListGenerationsQuery["batch"];
};

/**
 * One cursor page of the history, newest first, of what matches `query`; the total and today's
 * count are of what matches. With `timeZone`, the server counts "today" on that calendar.
 */
export function fetchGenerationsPage(options: {
	limit: number;
	cursor?: string | null;
	timeZone?: string;
	query?: GenerationsQuery;
	signal?: AbortSignal;
}): Promise<GenerationPage> {
	const params = new URLSearchParams({ limit: String(options.limit) });
	if (options.timeZone) params.set("timeZone", options.timeZone);
	const { search, aspectRatio, modelId, isFavoritesOnly, ownerEmail, boardId, styleId, batchId } =
		options.query ?? {};
	if (search) params.set("q", search);
	if (aspectRatio) params.set("ratio", aspectRatio);
	if (modelId) params.set("model", modelId);
	if (isFavoritesOnly) params.set("favorites", "true");
	if (ownerEmail) params.set("owner", ownerEmail);
	if (boardId) params.set("board", boardId);
	if (styleId) params.set("style", styleId);
	if (batchId) params.set("batch", batchId);
	if (options.cursor) params.set("cursor", options.cursor);
	return requestApi(`/api/generations?${params}`, GenerationPageSchema, {
		signal: options.signal,
	});
}

const DeleteAnswerSchema = z.object({
	success: z.literal(true),
	permanent: z.optional(z.boolean()),
});

/** Deletes one generation: to the Trash, or for good (`permanent`) where the server keeps none. */
export async function deleteGenerationById(id: string): Promise<{ permanent: boolean }> {
	const answer = await requestApi(generationPath(id), DeleteAnswerSchema, { method: "DELETE" });
	return { permanent: answer.permanent !== false };
}

/** Deletes several generations at once (at most MAX_BULK_GENERATIONS): all of them, or none. */
export async function deleteGenerationsByIds(
	ids: readonly string[],
): Promise<{ deleted: number; permanent: boolean }> {
	const answer = await requestApi("/api/generations/bulk-delete", BulkDeleteResponseSchema, {
		method: "POST",
		body: JSON.stringify({ ids: [...ids] } satisfies GenerationIdsRequest),
	});
	return { deleted: answer.deleted, permanent: answer.permanent !== false };
}

/** Stars a generation, or takes its star away; answers what the server now keeps. */
export async function setGenerationFavorite(id: string, isFavorite: boolean): Promise<boolean> {
	const answer = await requestApi(`${generationPath(id)}/favorite`, SetFavoriteResponseSchema, {
		method: "PUT",
		body: JSON.stringify({ favorite: isFavorite } satisfies SetFavoriteRequest),
	});
	return answer.favorite;
}

// Downloads are plain links and a plain form: the browser streams the file to disk itself, under
// the name the server gives it (Content-Disposition), with its own progress and no copy in memory.

/** Where one image's original downloads, under the name the server gives it. */
export function buildImageDownloadUrl(id: string, index: number): string {
	return `${generationPath(id)}/images/${index}/download`;
}

/** Where the ZIP of one generation's images downloads. */
export function buildArchiveUrl(id: string): string {
	return `${generationPath(id)}/archive`;
}

/**
 * Where a form posts `ids` fields (at most MAX_BULK_GENERATIONS) to download them as one ZIP: a
 * form, not a fetch, so the browser streams the download natively.
 */
export const BULK_ARCHIVE_URL = "/api/generations/archive";
