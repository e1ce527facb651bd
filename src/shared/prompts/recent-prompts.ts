import { z } from "zod";
import { MAX_PROMPT_LENGTH, MAX_SEARCH_LENGTH } from "../core/constants";
import {
	sharedMustBeText,
	sharedMustBeTrue,
	sharedRecentRemoveShape,
	sharedTooLong,
} from "../i18n/messages";

/** `GET /api/prompts/recent?q=`: `q` matches anywhere in the prompt, any case. */
export const RecentPromptsQuerySchema = z.object({
	q: z
		.string()
		.trim()
		.max(MAX_SEARCH_LENGTH, {
			error: () => sharedTooLong({ field: "q", max: String(MAX_SEARCH_LENGTH) }),
		})
		.optional(),
});

const REMOVE_MESSAGE = () => sharedRecentRemoveShape({ one: "{ prompt }", all: "{ all: true }" });

/** `POST /api/prompts/recent/remove`: one prompt, or all of them. */
export const RemoveRecentPromptsRequestSchema = z.union(
	[
		z.strictObject({
			prompt: z
				.string({ error: () => sharedMustBeText({ field: "prompt" }) })
				.max(MAX_PROMPT_LENGTH, {
					error: () => sharedTooLong({ field: "prompt", max: String(MAX_PROMPT_LENGTH) }),
				}),
		}),
		z.strictObject({ all: z.literal(true, { error: () => sharedMustBeTrue({ field: "all" }) }) }),
	],
	{ error: REMOVE_MESSAGE },
);
export type RemoveRecentPromptsRequest = z.infer<typeof RemoveRecentPromptsRequestSchema>;
