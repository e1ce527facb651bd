import { z } from "zod/mini";
import { createUnexpectedAnswerError, fetchApiJson } from "./api-fetch";

// ApiError lives with the fetch half, which the first page uses on its own; most callers want
// both halves from here.
export { ApiError } from "./api-fetch";

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
	const { body, status } = await fetchApiJson(path, init);
	const parsed = z.safeParse(schema, body);
	if (!parsed.success) throw createUnexpectedAnswerError(status);
	return parsed.data;
}
