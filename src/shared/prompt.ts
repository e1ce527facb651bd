import { MAX_PROMPT_LENGTH } from "./constants";
import {
	generatorNegativeInvalid,
	generatorNegativeNotText,
	generatorNegativeTooLong,
	generatorPromptEmpty,
	generatorPromptInvalid,
	generatorPromptRequired,
	generatorPromptTooLong,
} from "./i18n/messages";

const ENGLISH = { language: "en" } as const;

/**
 * The prompt rules' messages in English, as the server refuses with them. The checks below write
 * them in the page's language in the browser (the server's messages are always English).
 */
export const PROMPT_MESSAGES = {
	required: generatorPromptRequired(ENGLISH),
	empty: generatorPromptEmpty(ENGLISH),
	tooLong: generatorPromptTooLong({ max: MAX_PROMPT_LENGTH }, ENGLISH),
	invalidContent: generatorPromptInvalid(ENGLISH),
} as const;

const FORBIDDEN_PATTERNS: readonly RegExp[] = [
	/<\s*\/?\s*script\b/i,
	/javascript\s*:/i,
	/\bon[a-z]+\s*=/i,
	/data\s*:\s*text\/html/i,
];

/** Strips angle brackets and cuts the text to the maximum prompt length (SPEC.md section 5). */
export function sanitizePrompt(input: string): string {
	return input.replace(/[<>]/g, "").slice(0, MAX_PROMPT_LENGTH);
}

type PromptCheck = { ok: true; prompt: string } | { ok: false; message: string };

/** Applies the prompt rules of SPEC.md section 5 in their order; the browser and the server share it. */
export function validatePrompt(input: unknown): PromptCheck {
	if (typeof input !== "string") return { ok: false, message: generatorPromptRequired() };
	const trimmed = input.trim();
	if (trimmed.length === 0) return { ok: false, message: generatorPromptEmpty() };
	if (input.length > MAX_PROMPT_LENGTH)
		return { ok: false, message: generatorPromptTooLong({ max: MAX_PROMPT_LENGTH }) };
	if (FORBIDDEN_PATTERNS.some((pattern) => pattern.test(input))) {
		return { ok: false, message: generatorPromptInvalid() };
	}
	return { ok: true, prompt: trimmed };
}

export const NEGATIVE_PROMPT_MESSAGES = {
	tooLong: generatorNegativeTooLong({ max: MAX_PROMPT_LENGTH }, ENGLISH),
	invalidContent: generatorNegativeInvalid(ENGLISH),
} as const;

type NegativePromptCheck =
	| { ok: true; negativePrompt: string | null }
	| { ok: false; message: string };

/**
 * The prompt's rules for the negative prompt, which may be left empty: nothing, or only spaces,
 * means none (null).
 */
export function validateNegativePrompt(input: unknown): NegativePromptCheck {
	if (input === undefined || input === null) return { ok: true, negativePrompt: null };
	if (typeof input !== "string") return { ok: false, message: generatorNegativeNotText() };
	if (input.length > MAX_PROMPT_LENGTH) {
		return { ok: false, message: generatorNegativeTooLong({ max: MAX_PROMPT_LENGTH }) };
	}
	if (FORBIDDEN_PATTERNS.some((pattern) => pattern.test(input))) {
		return { ok: false, message: generatorNegativeInvalid() };
	}
	const trimmed = input.trim();
	return { ok: true, negativePrompt: trimmed.length > 0 ? trimmed : null };
}

export function isValidPrompt(input: unknown): boolean {
	return validatePrompt(input).ok;
}

/** Removes a user-typed `--ar W:H` flag: the ratio travels separately, the provider's way. */
export function stripAspectRatioFlag(prompt: string): string {
	return prompt
		.replace(/(^|\s)--(ar|aspect)\s+\d+\s*:\s*\d+/gi, " ")
		.replace(/\s+/g, " ")
		.trim();
}
