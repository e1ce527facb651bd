import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "./constants";
import { validatePrompt } from "./prompt";

/** `POST /api/prompts/enhance`: the prompt to rewrite, and whether to translate it to English. */
export const EnhancePromptRequestSchema = z.strictObject({
	prompt: z
		.unknown()
		.transform((value, context) => {
			const check = validatePrompt(value);
			if (!check.ok) {
				context.addIssue({ code: "custom", message: check.message });
				return z.NEVER;
			}
			return check.prompt;
		})
		.meta({
			type: "string",
			minLength: 1,
			maxLength: MAX_PROMPT_LENGTH,
			description: `The prompt to rewrite, ${MAX_PROMPT_LENGTH} characters at most.`,
		}),
	translate: z
		.boolean({ error: "translate must be true or false" })
		.optional()
		.meta({ description: "Also translate the prompt to English." }),
});
export type EnhancePromptRequest = z.infer<typeof EnhancePromptRequestSchema>;
