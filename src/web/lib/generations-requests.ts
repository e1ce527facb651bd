// Every call the browser makes to the generations API, each wrapped once, for both features (the
// generator and the history). Loaded on demand only: it parses with zod/mini, which the first page
// does without (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import type { AspectRatio } from "../../shared/aspect-ratios";
import type { PollAnswer } from "../../shared/generation-flow";
import {
	CreateGenerationResponseSchema,
	type Generation,
	type GenerationPage,
	GenerationPageSchema,
	GenerationSchema,
	PollAnswerSchema,
} from "../../shared/generation-responses";
import { ApiError, parseApiAnswer, requestApi } from "./api-client";
import { fetchApiJson } from "./api-fetch";

function generationPath(id: string): string {
	return `/api/generations/${encodeURIComponent(id)}`;
}

/**
 * `POST /api/generations`. It failed when the HTTP status is not ok or success is not true
 * (SPEC.md section 7); both throw an ApiError, with the server's error body when it sent one.
 */
export async function startGeneration(
	request: { prompt: string; aspectRatio: AspectRatio },
	signal: AbortSignal,
): Promise<{ id: string; pollingUrl: string | null }> {
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
	return { id: created.id, pollingUrl: created.pollingUrl || null };
}

/**
 * One `GET {pollingUrl}`: the server holds it until the generation changes or about 1.5 s pass.
 * The answer is read in the wider shape of SPEC.md section 3, which this server's answer is one case
 * of; `readPollOutcome` (shared/generation-flow.ts) says what it means.
 */
export function pollGenerationStatus(
	pollingUrl: string,
	signal?: AbortSignal,
): Promise<PollAnswer> {
	return requestApi(pollingUrl, PollAnswerSchema, { signal });
}

/** The saved record: images with their sizes and thumbnails, and the server's start and end times. */
export function fetchGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
	return requestApi(generationPath(id), GenerationSchema, { signal });
}

/**
 * One cursor page of the history, newest first. With `timeZone`, the server counts "today" on
 * that calendar.
 */
export function fetchGenerationsPage(options: {
	limit: number;
	cursor?: string | null;
	timeZone?: string;
	signal?: AbortSignal;
}): Promise<GenerationPage> {
	const query = new URLSearchParams({ limit: String(options.limit) });
	if (options.timeZone) query.set("timeZone", options.timeZone);
	if (options.cursor) query.set("cursor", options.cursor);
	return requestApi(`/api/generations?${query}`, GenerationPageSchema, {
		signal: options.signal,
	});
}

const DeleteAnswerSchema = z.object({ success: z.literal(true) });

/** Deletes one generation and its stored images. */
export async function deleteGenerationById(id: string): Promise<void> {
	await requestApi(generationPath(id), DeleteAnswerSchema, { method: "DELETE" });
}
