// What the browser makes of the answers to a generation's start and poll requests. Apart from
// generation-flow.ts, whose messages the first page shows: only the generation flow, which loads on
// demand, reads answers (docs/decisions/005-first-load-budget.md).
import { type ApiFailure, ERRORS } from "../core/errors";
import { GENERATION_MESSAGES } from "./generation-flow";
import type { GenerationProgress } from "./generation-responses";

/** The message of a poll the server answered with an HTTP error status. */
export function formatPollingHttpError(status: number): string {
	return `Polling HTTP ${status}`;
}

/** What a failed start request says: the server's message, else its code, else "HTTP {status}". */
export function formatStartError(
	error: { message?: string | null; code?: string | null } | string | null | undefined,
	status: number,
): string {
	if (typeof error === "string") return error.trim() || `HTTP ${status}`;
	const message = error?.message?.trim();
	if (message) return message;
	const code = error?.code?.trim();
	if (code) return code;
	return `HTTP ${status}`;
}

/**
 * The screen text of a failed start or poll request (SPEC.md section 8). No answer at all is the
 * catalogue's network error. A failed start shows the server's message, else its code, else
 * "HTTP {status}". A poll answered with an error status shows "Polling HTTP {status}"; one answered
 * with something unreadable, the catalogue's API error.
 */
export function formatGenerationRequestError(
	request: "start" | "poll",
	failure: ApiFailure,
): string {
	if (failure.kind === "network") return ERRORS.NETWORK_ERROR.message;
	if (request === "start") {
		return formatStartError(failure.kind === "server" ? failure : undefined, failure.status);
	}
	if (failure.kind === "answer") return ERRORS.API_ERROR.message;
	return formatPollingHttpError(failure.status);
}

/** A poll answer as SPEC.md section 3 describes it: results are URLs, or objects with url or src. */
export type PollAnswer = {
	status: string;
	results?: ReadonlyArray<string | { url?: string | null; src?: string | null }> | null;
	message?: string | null;
	/** What is happening, from a server that says (absent or null otherwise). */
	progress?: GenerationProgress | null;
	/** This server's digest of the answer, for the next poll's `after` (absent from others). */
	version?: string;
};

export type PollOutcome =
	| { kind: "completed"; imageUrls: string[] }
	| { kind: "failed"; message: string }
	/** Not done yet; the server may say why it takes longer ("The image service is busy"). */
	| { kind: "pending"; message: string | null };

function readImageUrl(
	result: string | { url?: string | null; src?: string | null },
): string | null {
	if (typeof result === "string") return result || null;
	return result.url || result.src || null;
}

/**
 * What a poll answer means (SPEC.md section 4, Poll statuses): `completed` with a results array is
 * done; `failed` or `error` is a failure with the server's message, else "Generation failed";
 * anything else means wait and poll again.
 */
export function readPollOutcome(answer: PollAnswer): PollOutcome {
	if (answer.status === "completed" && Array.isArray(answer.results)) {
		const imageUrls = answer.results.map(readImageUrl).filter((url): url is string => url !== null);
		return { kind: "completed", imageUrls };
	}
	if (answer.status === "failed" || answer.status === "error") {
		return { kind: "failed", message: answer.message?.trim() || GENERATION_MESSAGES.failed };
	}
	return { kind: "pending", message: answer.message?.trim() || null };
}
