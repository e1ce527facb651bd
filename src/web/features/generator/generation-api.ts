import { ERRORS } from "../../../shared/errors";
import {
	formatPollingHttpError,
	formatStartError,
	type PollAnswer,
} from "../../../shared/generation-flow";
import {
	CreateGenerationResponseSchema,
	type Generation,
	GenerationPageSchema,
	GenerationSchema,
	PollAnswerSchema,
} from "../../../shared/generation-responses";
import { requestApi } from "../../lib/api-client";
import type { GeneratedRequest } from "./generation-state";

/** A step of the generation flow failed with a message meant for the person. */
export class GenerationError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "GenerationError";
	}
}

export function isAbortError(error: unknown): boolean {
	return error instanceof DOMException && error.name === "AbortError";
}

async function fetchOrExplain(input: string, init: RequestInit): Promise<Response> {
	try {
		return await fetch(new URL(input, window.location.origin), {
			...init,
			credentials: "same-origin",
		});
	} catch (error) {
		if (isAbortError(error)) throw error;
		throw new GenerationError(ERRORS.NETWORK_ERROR.message);
	}
}

/**
 * `POST /api/generations`. A failure is an HTTP status that is not ok or an answer whose success
 * is not true; its message is the server's message or code, else "HTTP {status}" (SPEC.md sections
 * 7 and 8).
 */
export async function startGeneration(
	request: GeneratedRequest,
	signal: AbortSignal,
): Promise<{ id: string; pollingUrl: string | null }> {
	const response = await fetchOrExplain("/api/generations", {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "application/json" },
		body: JSON.stringify(request),
		signal,
	});
	const body: unknown = await response.json().catch(() => null);
	const parsed = CreateGenerationResponseSchema.safeParse(body);
	if (!response.ok || !parsed.success || !parsed.data.success) {
		const envelope = parsed.success && !parsed.data.success ? parsed.data.error : undefined;
		throw new GenerationError(formatStartError(envelope, response.status));
	}
	// An empty polling URL is as good as none: the flow reports "No polling URL provided".
	return { id: parsed.data.id, pollingUrl: parsed.data.pollingUrl || null };
}

/**
 * One `GET {pollingUrl}`; the server holds it until the generation changes or about 1.5 s pass.
 * An HTTP error or an unreadable answer throws, for the flow to retry.
 */
export async function pollGeneration(pollingUrl: string, signal: AbortSignal): Promise<PollAnswer> {
	const response = await fetchOrExplain(pollingUrl, {
		headers: { Accept: "application/json" },
		signal,
	});
	if (!response.ok) throw new GenerationError(formatPollingHttpError(response.status));
	const parsed = PollAnswerSchema.safeParse(await response.json().catch(() => null));
	if (!parsed.success) throw new GenerationError(ERRORS.API_ERROR.message);
	return parsed.data;
}

/** The saved record: images with their sizes and thumbnails, and the server's start and end times. */
export function fetchGeneration(id: string, signal: AbortSignal): Promise<Generation> {
	return requestApi(`/api/generations/${encodeURIComponent(id)}`, GenerationSchema, { signal });
}

// Several generations may run at once (the server allows a few per person); the newest few are
// enough to find the one to pick up.
const RESUME_LOOKUP_LIMIT = 5;

/** The newest of the person's generations still queued or running, if any and not in `skipIds`. */
export async function findGenerationToResume(
	skipIds: ReadonlySet<string>,
	signal: AbortSignal,
): Promise<Generation | undefined> {
	const page = await requestApi(
		`/api/generations?limit=${RESUME_LOOKUP_LIMIT}`,
		GenerationPageSchema,
		{ signal },
	);
	return page.items.find(
		(item) => (item.status === "queued" || item.status === "running") && !skipIds.has(item.id),
	);
}

/** Parses a server timestamp, or null when it is missing or unreadable. */
export function parseTimestamp(value: string | null | undefined): number | null {
	if (!value) return null;
	const time = Date.parse(value);
	return Number.isNaN(time) ? null : time;
}
