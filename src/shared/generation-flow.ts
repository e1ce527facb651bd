import { FIRST_PAGE_ERRORS } from "./first-page-errors";

/** The generator's own messages (SPEC.md sections 5 and 8), word for word. */
export const GENERATION_MESSAGES = {
	signInRequired: FIRST_PAGE_ERRORS.SIGN_IN_REQUIRED.message,
	invalidPrompt: "Please enter a valid prompt.",
	failed: "Generation failed",
	timedOut: "Generation timed out",
	noPollingUrl: "No polling URL provided",
	cancelled: "Request was cancelled",
} as const;
