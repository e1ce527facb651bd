// The error catalogue's entries the first page shows by itself, without an answer from the server
// to take the words from: no connection, an answer it cannot read, a crash, a visitor who must sign
// in, an unverified address.
// The catalogue (errors.ts) includes them; the first page imports only this module, so the other
// codes' messages load with the screens that show them (docs/decisions/005-first-load-budget.md).
// Each message is the catalogue's English (src/shared/i18n/messages/en.json); errorMessage
// (errors.ts) gives another language's.
import {
	errorApiError,
	errorEmailNotVerified,
	errorNetworkError,
	errorSignInRequired,
	errorUnknownError,
} from "../i18n/messages";

export const FIRST_PAGE_ERRORS = {
	NETWORK_ERROR: { status: 503, message: errorNetworkError() },
	API_ERROR: { status: 502, message: errorApiError() },
	UNKNOWN_ERROR: { status: 500, message: errorUnknownError() },
	SIGN_IN_REQUIRED: { status: 401, message: errorSignInRequired() },
	EMAIL_NOT_VERIFIED: { status: 403, message: errorEmailNotVerified() },
} as const;
