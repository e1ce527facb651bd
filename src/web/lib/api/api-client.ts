import { z } from "zod/mini";
import { createUnexpectedAnswerError, fetchApiJson } from "./api-fetch";

// ApiError lives with the fetch half, which the first page uses on its own; most callers want
// both halves from here.
export { ApiError, isAbortError } from "./api-fetch";

/** Parses an answer of `fetchApiJson` with `schema`; an answer of another shape throws an ApiError. */
export function parseApiAnswer<Schema extends z.core.$ZodType>(
	schema: Schema,
	{ body, status }: { body: unknown; status: number },
): z.infer<Schema> {
	const parsed = z.safeParse(schema, body);
	if (!parsed.success) throw createUnexpectedAnswerError(status);
	return parsed.data;
}

/**
 * Calls the API on this origin and parses the answer with `schema` (classic zod or zod/mini).
 * Failures throw an ApiError carrying the server's code and message, or a catalogue error when
 * the server gave none.
 */
export async function requestApi<Schema extends z.core.$ZodType>(
	path: string,
	schema: Schema,
	init: RequestInit = {},
): Promise<z.infer<Schema>> {
	return parseApiAnswer(schema, await fetchApiJson(path, init));
}
