import { z } from "zod";
import { MAX_PROMPT_LENGTH, MAX_SEARCH_LENGTH } from "./constants";

/** `GET /api/prompts/recent?q=`: `q` matches anywhere in the prompt, any case. */
export const RecentPromptsQuerySchema = z.object({
	q: z
		.string()
		.trim()
		.max(MAX_SEARCH_LENGTH, `q must be ${MAX_SEARCH_LENGTH} characters or less`)
		.optional(),
});

const REMOVE_MESSAGE = "Send { prompt } to remove one prompt, or { all: true } to remove them all";

/** `POST /api/prompts/recent/remove`: one prompt, or all of them. */
export const RemoveRecentPromptsRequestSchema = z.union(
	[
		z.strictObject({
			prompt: z
				.string({ error: "prompt must be text" })
				.max(MAX_PROMPT_LENGTH, `prompt must be ${MAX_PROMPT_LENGTH} characters or less`),
		}),
		z.strictObject({ all: z.literal(true, { error: "all must be true" }) }),
	],
	{ error: REMOVE_MESSAGE },
);
export type RemoveRecentPromptsRequest = z.infer<typeof RemoveRecentPromptsRequestSchema>;
