import { FIRST_PAGE_ERRORS } from "../core/first-page-errors";
import {
	generatorCancelled,
	generatorFailed,
	generatorInvalidPrompt,
	generatorNoPollingUrl,
	generatorTimedOut,
} from "../i18n/messages";

/**
 * The generator's own messages (SPEC.md sections 5 and 8), word for word, in English: the server
 * stores and answers them so. The browser shows them in the page's language by calling the same
 * message functions when it shows them.
 */
export const GENERATION_MESSAGES = {
	signInRequired: FIRST_PAGE_ERRORS.SIGN_IN_REQUIRED.message,
	invalidPrompt: generatorInvalidPrompt({ language: "en" }),
	failed: generatorFailed({ language: "en" }),
	timedOut: generatorTimedOut({ language: "en" }),
	noPollingUrl: generatorNoPollingUrl({ language: "en" }),
	cancelled: generatorCancelled({ language: "en" }),
} as const;
