// The error catalogue's entries the first page shows by itself, without an answer from the server
// to take the words from: no connection, an answer it cannot read, a crash, a visitor who must sign
// in, an unverified address.
// The catalogue (errors.ts) includes them; the first page imports only this module, so the other
// codes' messages load with the screens that show them (docs/decisions/005-first-load-budget.md).
// Each message is the catalogue's English (src/shared/i18n/messages/en.json); in another language
// it is read through translateErrorMessage when shown.
import {
	errorApiError,
	errorEmailNotVerified,
	errorNetworkError,
	errorSignInRequired,
	errorUnknownError,
} from "./i18n/messages";
import { type MessageOptions, translate } from "./i18n/runtime";

export const FIRST_PAGE_ERRORS = {
	NETWORK_ERROR: { status: 503, message: errorNetworkError() },
	API_ERROR: { status: 502, message: errorApiError() },
	UNKNOWN_ERROR: { status: 500, message: errorUnknownError() },
	SIGN_IN_REQUIRED: { status: 401, message: errorSignInRequired() },
	EMAIL_NOT_VERIFIED: { status: 403, message: errorEmailNotVerified() },
} as const;

/** The catalogue's key of an error code's message: NOT_FOUND's is errorNotFound. */
function errorMessageKey(code: string): string {
	const words = code.toLowerCase().split("_");
	return `error${words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("")}`;
}

/** An error code's message in the person's language (the page's unless named), else `english`. */
export function translateErrorMessage(
	code: string,
	english: string,
	options?: MessageOptions,
): string {
	return translate(errorMessageKey(code), english, undefined, options);
}
