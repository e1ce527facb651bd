import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../core/constants";
import { sharedTrueOrFalse } from "../i18n/messages";
import { promptSchema } from "./create-generation-request";

/** `POST /api/prompts/enhance`: the prompt to rewrite, and whether to translate it to English. */
export const EnhancePromptRequestSchema = z.strictObject({
	prompt: promptSchema(`The prompt to rewrite, ${MAX_PROMPT_LENGTH} characters at most.`),
	translate: z
		.boolean({ error: () => sharedTrueOrFalse({ field: "translate" }) })
		.optional()
		.meta({ description: "Also translate the prompt to English." }),
});
export type EnhancePromptRequest = z.infer<typeof EnhancePromptRequestSchema>;
