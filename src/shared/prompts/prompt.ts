import { MAX_PROMPT_LENGTH } from "../core/constants";
import {
	generatorNegativeInvalid,
	generatorNegativeNotText,
	generatorNegativeTooLong,
	generatorPromptEmpty,
	generatorPromptInvalid,
	generatorPromptRequired,
	generatorPromptTooLong,
} from "../i18n/messages";

const ENGLISH = { language: "en" } as const;

/**
 * The prompt rules' messages in English, as the server refuses with them. The checks below write
 * them in the page's language in the browser (the server's messages are always English). Written
 * when read, not when the module is evaluated: the first page evaluates this module, and the
 * first number a page formats (the 500 of "500 characters") loads the locale's number data, a
 * task of some 60 ms on a mid-range phone (docs/decisions/040-the-first-screens-start.md).
 */
export const PROMPT_MESSAGES = {
	get required() {
		return generatorPromptRequired(ENGLISH);
	},
	get empty() {
		return generatorPromptEmpty(ENGLISH);
	},
	get tooLong() {
		return generatorPromptTooLong({ max: MAX_PROMPT_LENGTH }, ENGLISH);
	},
	get invalidContent() {
		return generatorPromptInvalid(ENGLISH);
	},
};

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

/** The negative prompt's rules' messages in English, written when read (as PROMPT_MESSAGES). */
export const NEGATIVE_PROMPT_MESSAGES = {
	get tooLong() {
		return generatorNegativeTooLong({ max: MAX_PROMPT_LENGTH }, ENGLISH);
	},
	get invalidContent() {
		return generatorNegativeInvalid(ENGLISH);
	},
};

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
