import { GENERATION_MESSAGES } from "../../../shared/generations/generation-flow";

/**
 * What a person is shown when an image service fails. The vendor's own words always go to the log
 * (ProviderError.message or a failed state's `reason`); they are shown only where they help, such
 * as a validation message naming the field at fault.
 */
export const PROVIDER_MESSAGES = {
	failed: GENERATION_MESSAGES.failed,
	timedOut: GENERATION_MESSAGES.timedOut,
	refused: "The provider refused this prompt",
	busy: "The image service is busy. Please try again later.",
	credentials: "The image service did not accept Atelier's credentials",
	noCredit: "The image service account has no credit left",
	expired: "The images expired at the image service before they could be saved",
	cancelled: "The generation was cancelled at the image service",
	lost: "The image service no longer knows this generation",
	noImages: "The image service returned no images",
	/**
	 * The poll's message while a rate-limited image service is waited for (429 and Retry-After).
	 * Here, not in the generator's messages: only the server writes it, and the first page carries
	 * those (docs/decisions/005-first-load-budget.md).
	 */
	busyRetrying: "The image service is busy, retrying",
	/** The poll's message while an image service that cannot be reached is tried again. */
	unreachableRetrying: "The image service cannot be reached, retrying",
} as const;

// Moderation wording seen across vendors and models (Replicate models, fal, OpenAI, Stability).
const MODERATION_PATTERN =
	/\b(nsfw|safety (system|checker|filter)|content[ _-]?polic|moderation|flagged|sensitive)/i;

/** Whether a vendor's failure text says a safety filter refused the prompt or its images. */
export function isModerationText(text: string | undefined): boolean {
	return text !== undefined && MODERATION_PATTERN.test(text);
}

/** The first non-empty line of a vendor's text, cut to a length a message can show. */
export function summarizeVendorText(
	text: string | null | undefined,
	maxLength = 300,
): string | undefined {
	const line = text
		?.split("\n")
		// Validation details often come as a bulleted list ("- input.prompt: ...").
		.map((part) => part.trim().replace(/^[-*•]\s+/, ""))
		.find((part) => part.length > 0);
	if (!line) return undefined;
	return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}
