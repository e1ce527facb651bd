import type { z } from "zod";
import { ERRORS, type ErrorCode, ErrorEnvelopeSchema } from "../../shared/errors";

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

// Only the error body matters here, so an envelope without `success: false` still shows its message.
const ErrorBodyEnvelopeSchema = ErrorEnvelopeSchema.pick({ error: true });

async function readErrorEnvelope(response: Response): Promise<ApiError> {
	const body: unknown = await response.json().catch(() => null);
	const envelope = ErrorBodyEnvelopeSchema.safeParse(body);
	if (envelope.success) {
		return new ApiError(envelope.data.error.code, envelope.data.error.message, response.status);
	}
	return createCatalogueError(
		response.status >= 500 ? "API_ERROR" : "UNKNOWN_ERROR",
		response.status,
	);
}

/**
 * Calls the API on this origin and parses the answer with `schema`. Failures throw an ApiError
 * carrying the server's code and message, or a catalogue error when the server gave none.
 */
export async function requestApi<Schema extends z.ZodType>(
	path: string,
	schema: Schema,
	init: RequestInit = {},
): Promise<z.infer<Schema>> {
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
	const parsed = schema.safeParse(body);
	if (!parsed.success) throw createCatalogueError("API_ERROR", response.status);
	return parsed.data;
}
