// The fetch half of the API client, without a schema library, for the first page; api-client.ts
// adds parsing with the shared schemas (docs/decisions/005-first-load-budget.md).
import type { ApiFailure, ApiFailureKind } from "../../../shared/core/errors";
import { FIRST_PAGE_ERRORS } from "../../../shared/core/first-page-errors";
import { readErrorBody } from "./read-json";

/**
 * The one error of every call to the API: what the server answered, or why there is no usable
 * answer, in the shared error model.
 */
export class ApiError extends Error implements ApiFailure {
	readonly kind: ApiFailureKind;
	readonly code: string;
	readonly status: number;

	constructor({ kind, code, message, status }: ApiFailure) {
		super(message);
		this.name = "ApiError";
		this.kind = kind;
		this.code = code;
		this.status = status;
	}
}

function createCatalogueError(
	kind: ApiFailureKind,
	code: keyof typeof FIRST_PAGE_ERRORS,
	status: number,
): ApiError {
	return new ApiError({ kind, code, message: FIRST_PAGE_ERRORS[code].message, status });
}

/**
 * True for the error a fetch or a wait throws when its signal aborts. Told by its name: the
 * DOMException of another realm (a test's, a worker's) is no instance of this one's.
 */
export function isAbortError(error: unknown): boolean {
	return error instanceof Error && error.name === "AbortError";
}

async function readErrorEnvelope(response: Response): Promise<ApiError> {
	// Only the error body matters, so an envelope without `success: false` still shows its message.
	const error = readErrorBody(await response.json().catch(() => null));
	if (error) return new ApiError({ kind: "server", ...error, status: response.status });
	return createCatalogueError(
		"status",
		response.status >= 500 ? "API_ERROR" : "UNKNOWN_ERROR",
		response.status,
	);
}

/**
 * Calls the API on this origin and answers its JSON body, unparsed (null when there is none).
 * Failures throw an ApiError carrying the server's code and message, or a catalogue error when
 * the server gave none. Prefer `requestApi`, which parses the body too.
 */
export async function fetchApiJson(
	path: string,
	init: RequestInit = {},
): Promise<{ body: unknown; status: number }> {
	const headers = new Headers(init.headers);
	headers.set("Accept", "application/json");
	// Our JSON bodies are strings; a FormData body (an upload) carries its own multipart type.
	if (typeof init.body === "string" && !headers.has("Content-Type")) {
		headers.set("Content-Type", "application/json");
	}

	let response: Response;
	try {
		response = await fetch(new URL(path, window.location.origin), {
			...init,
			headers,
			credentials: "same-origin",
		});
	} catch (error) {
		if (isAbortError(error)) throw error;
		throw createCatalogueError("network", "NETWORK_ERROR", 0);
	}

	if (!response.ok) throw await readErrorEnvelope(response);
	const body: unknown = await response.json().catch(() => null);
	return { body, status: response.status };
}

/** An answer that does not have the expected shape: the server is not the one we know. */
export function createUnexpectedAnswerError(status: number): ApiError {
	return createCatalogueError("answer", "API_ERROR", status);
}
