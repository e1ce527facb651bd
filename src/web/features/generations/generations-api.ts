import { z } from "zod/mini";
import {
	type Generation,
	type GenerationPage,
	GenerationPageSchema,
	GenerationSchema,
	type PollResponse,
	PollResponseSchema,
} from "../../../shared/generation-responses";
import { requestApi } from "../../lib/api-client";

/**
 * Items per cursor page, sent with every request: two or three screens of cards on a wide screen,
 * small enough to answer at once. (The server's own default lives beside its classic-zod request
 * schemas, which the browser does not load.)
 */
export const GENERATIONS_PAGE_SIZE = 24;

export const GENERATIONS_QUERY_KEY = ["generations"] as const;

export function createGenerationsListKey(timeZone: string) {
	return [...GENERATIONS_QUERY_KEY, "list", timeZone] as const;
}

/** The viewer's IANA zone, so the server counts "today" on the viewer's calendar. */
export function readBrowserTimeZone(): string {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
	} catch {
		return "UTC";
	}
}

export async function fetchGenerationsPage(options: {
	cursor: string | null;
	timeZone: string;
	signal?: AbortSignal;
}): Promise<GenerationPage> {
	const query = new URLSearchParams({
		limit: String(GENERATIONS_PAGE_SIZE),
		timeZone: options.timeZone,
	});
	if (options.cursor) query.set("cursor", options.cursor);
	return requestApi(`/api/generations?${query}`, GenerationPageSchema, {
		signal: options.signal,
	});
}

export async function fetchGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
	return requestApi(`/api/generations/${encodeURIComponent(id)}`, GenerationSchema, { signal });
}

const DeleteAnswerSchema = z.object({ success: z.literal(true) });

export async function deleteGenerationById(id: string): Promise<void> {
	await requestApi(`/api/generations/${encodeURIComponent(id)}`, DeleteAnswerSchema, {
		method: "DELETE",
	});
}

/** One long poll of a generation's polling URL: the server answers when it changes or ~1.5 s pass. */
export async function pollGenerationStatus(
	pollingUrl: string,
	signal?: AbortSignal,
): Promise<PollResponse> {
	return requestApi(pollingUrl, PollResponseSchema, { signal });
}
