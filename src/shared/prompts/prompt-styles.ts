import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../core/constants";
import {
	sharedStyleId,
	sharedStyleInvalid,
	sharedStyleName,
	sharedStylePrompt,
} from "../i18n/messages";
import { validateNegativePrompt, validatePrompt } from "./prompt";
import { PROMPT_PLACEHOLDER, type StyleTemplate } from "./prompt-tool-responses";

export const MAX_STYLE_NAME_LENGTH = 60;

/** How many styles of their own a person may keep. */
export const MAX_PERSONAL_STYLES = 100;

/**
 * A style's refusals, each written when it is read: in the request's language on the server
 * (a schema's issue is read again in it), in the page's in the browser.
 */
export const STYLE_MESSAGES = {
	name: () => sharedStyleName({ max: String(MAX_STYLE_NAME_LENGTH) }),
	prompt: () =>
		sharedStylePrompt({ placeholder: PROMPT_PLACEHOLDER, max: String(MAX_PROMPT_LENGTH) }),
	invalidContent: () => sharedStyleInvalid(),
	style: () => sharedStyleId(),
} as const;

const StyleNameSchema = z
	.string({ error: STYLE_MESSAGES.name })
	.trim()
	.min(1, { error: STYLE_MESSAGES.name })
	.max(MAX_STYLE_NAME_LENGTH, { error: STYLE_MESSAGES.name });

/** A style's template: the prompt rules, and `{prompt}` somewhere in it. */
const StylePromptSchema = z.string({ error: STYLE_MESSAGES.prompt }).transform((value, context) => {
	if (!value.includes(PROMPT_PLACEHOLDER) || value.length > MAX_PROMPT_LENGTH) {
		context.addIssue({ code: "custom", message: STYLE_MESSAGES.prompt() });
		return z.NEVER;
	}
	const check = validatePrompt(value);
	if (!check.ok) {
		context.addIssue({ code: "custom", message: STYLE_MESSAGES.invalidContent() });
		return z.NEVER;
	}
	return check.prompt;
});

const StyleNegativePromptSchema = z
	.unknown()
	.transform((value, context) => {
		const check = validateNegativePrompt(value);
		if (!check.ok) {
			context.addIssue({ code: "custom", message: `negativePrompt: ${check.message}` });
			return z.NEVER;
		}
		return check.negativePrompt;
	})
	.meta({ description: "What the style leaves out, added to the generation's negative prompt." });

/** `POST /api/styles`: a personal style. */
export const CreateStyleRequestSchema = z.object({
	name: StyleNameSchema,
	prompt: StylePromptSchema.meta({
		description: `The template, ${MAX_PROMPT_LENGTH} characters at most; ${PROMPT_PLACEHOLDER} is where the prompt goes.`,
	}),
	negativePrompt: StyleNegativePromptSchema.optional(),
});
export type CreateStyleRequest = z.infer<typeof CreateStyleRequestSchema>;

/** `PATCH /api/styles/:id`: any of the fields, at least one. */
export const UpdateStyleRequestSchema = z
	.object({
		name: StyleNameSchema.optional(),
		prompt: StylePromptSchema.optional(),
		negativePrompt: StyleNegativePromptSchema.optional(),
	})
	.refine(
		(update) =>
			update.name !== undefined || update.prompt !== undefined || "negativePrompt" in update,
		"name, prompt or negativePrompt is required",
	);
export type UpdateStyleRequest = z.infer<typeof UpdateStyleRequestSchema>;

/** An operator style's id in STYLES_FILE; a personal style's is a UUID. */
export const STYLE_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The prompt and negative prompt a style makes: the prompt in place of `{prompt}` (every one of
 * them), and the style's negative part after the person's own.
 */
export function applyStyle(
	style: StyleTemplate,
	prompt: string,
	negativePrompt: string | null,
): { prompt: string; negativePrompt: string | null } {
	const parts = [negativePrompt, style.negativePrompt].filter(
		(part): part is string => part !== null && part.length > 0,
	);
	return {
		prompt: style.prompt.split(PROMPT_PLACEHOLDER).join(prompt),
		negativePrompt: parts.length > 0 ? parts.join(", ") : null,
	};
}
