// The fetch half of the API client, without a schema library, for the first page; api-client.ts
// adds parsing with the shared schemas (docs/decisions/005-first-load-budget.md).
import { ERRORS, type ErrorCode } from "../../shared/errors";
import { readErrorBody } from "./read-json";

/** An error the API answered with, or a failure to reach it, in the shared error model. */
export class ApiError extends Error {
	readonly code: string;
	readonly status: number;

	constructor(code: string, message: string, status: number) {
		super(message);
		this.name = "ApiError";
		this.code = code;
		this.status = status;
	}
}

function createCatalogueError(code: ErrorCode, status: number = ERRORS[code].status): ApiError {
	return new ApiError(code, ERRORS[code].message, status);
}

async function readErrorEnvelope(response: Response): Promise<ApiError> {
	// Only the error body matters, so an envelope without `success: false` still shows its message.
	const error = readErrorBody(await response.json().catch(() => null));
	if (error) return new ApiError(error.code, error.message, response.status);
	return createCatalogueError(
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
	if (init.body !== undefined && !headers.has("Content-Type")) {
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
		if (error instanceof DOMException && error.name === "AbortError") throw error;
		throw createCatalogueError("NETWORK_ERROR", 0);
	}

	if (!response.ok) throw await readErrorEnvelope(response);
	const body: unknown = await response.json().catch(() => null);
	return { body, status: response.status };
}

/** An answer that does not have the expected shape: the server is not the one we know. */
export function createUnexpectedAnswerError(status: number): ApiError {
	return createCatalogueError("API_ERROR", status);
}
