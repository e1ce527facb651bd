// No schema library here: the browser imports this module. The first page imports only the
// entries it shows by itself, first-page-errors.ts (docs/decisions/005-first-load-budget.md).

import {
	errorAccountDisabled,
	errorAdminAccountProtected,
	errorAuthError,
	errorBoardReadOnly,
	errorEnhanceFailed,
	errorEnhanceNotConfigured,
	errorEnhanceRefused,
	errorForeignOrigin,
	errorGoogleNotConfigured,
	errorIdempotencyKeyReused,
	errorNotFound,
	errorPayloadTooLarge,
	errorPromptBlocked,
	errorQuotaExceeded,
	errorRateLimited,
	errorServiceUnavailable,
	errorShareEnded,
	errorShareFlagged,
	errorShareHidden,
	errorSignInAgain,
	errorTokenNotAllowed,
	errorTokenScopeMissing,
	errorValidationError,
} from "../i18n/messages";
import { type MessageOptions, translate } from "../i18n/runtime";
import { FIRST_PAGE_ERRORS } from "./first-page-errors";

/** The HTTP statuses the API answers errors with: each one a status that carries a body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 410 | 413 | 422 | 429 | 451 | 500 | 502 | 503;

/**
 * One error model end to end: each code has its HTTP status and the user message of the error
 * catalogue (SPEC.md section 8) where the catalogue gives one, in English: the message catalogue's
 * (src/shared/i18n/messages/en.json), read when this module loads; errorMessage gives another
 * language's.
 */
export const ERRORS = {
	...FIRST_PAGE_ERRORS,
	VALIDATION_ERROR: { status: 400, message: errorValidationError() },
	AUTH_ERROR: { status: 401, message: errorAuthError() },
	NOT_FOUND: { status: 404, message: errorNotFound() },
	PAYLOAD_TOO_LARGE: { status: 413, message: errorPayloadTooLarge() },
	QUOTA_EXCEEDED: { status: 429, message: errorQuotaExceeded() },
	RATE_LIMITED: { status: 429, message: errorRateLimited() },
	SERVICE_UNAVAILABLE: { status: 503, message: errorServiceUnavailable() },
	FOREIGN_ORIGIN: { status: 403, message: errorForeignOrigin() },
	ADMIN_ACCOUNT_PROTECTED: { status: 403, message: errorAdminAccountProtected() },
	SIGN_IN_AGAIN: { status: 403, message: errorSignInAgain() },
	TOKEN_SCOPE_MISSING: { status: 403, message: errorTokenScopeMissing() },
	TOKEN_NOT_ALLOWED: { status: 403, message: errorTokenNotAllowed() },
	IDEMPOTENCY_KEY_REUSED: { status: 422, message: errorIdempotencyKeyReused() },
	ACCOUNT_DISABLED: { status: 403, message: errorAccountDisabled() },
	BOARD_READ_ONLY: { status: 403, message: errorBoardReadOnly() },
	PROMPT_BLOCKED: { status: 400, message: errorPromptBlocked() },
	SHARE_ENDED: { status: 410, message: errorShareEnded() },
	SHARE_HIDDEN: { status: 451, message: errorShareHidden() },
	SHARE_FLAGGED: { status: 422, message: errorShareFlagged() },
	ENHANCE_NOT_CONFIGURED: { status: 404, message: errorEnhanceNotConfigured() },
	ENHANCE_FAILED: { status: 502, message: errorEnhanceFailed() },
	ENHANCE_REFUSED: { status: 422, message: errorEnhanceRefused() },
	GOOGLE_NOT_CONFIGURED: { status: 400, message: errorGoogleNotConfigured() },
} as const satisfies Record<string, { status: ErrorStatus; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** What a generation that was queued or running says once the administrator disabled its owner. */
export const CANCELLED_BY_DISABLE_MESSAGE = "Cancelled: the administrator disabled this account.";

/**
 * How a call to the API failed: no answer at all (`network`), an error answer with the server's
 * error body (`server`), an error status without a readable body (`status`), or an answer of a
 * shape the browser does not know (`answer`).
 */
export type ApiFailureKind = "network" | "server" | "status" | "answer";

/** A failed call to the API as the browser's client reports it; `status` is 0 without an answer. */
export type ApiFailure = { kind: ApiFailureKind; code: string; message: string; status: number };

export type ErrorBody = { code: string; message: string };

/** Every error the API answers: `success: false` keeps the start call's shape (SPEC.md section 7). */
export type ErrorEnvelope = { success: false; error: ErrorBody };

/**
 * A code's catalogue message in `options.language` (else the page's), English where untranslated:
 * the catalogues find a message by its English text (decision 037).
 */
export function errorMessage(code: ErrorCode, options?: MessageOptions): string {
	return translate(ERRORS[code].message, undefined, options);
}

export function errorBody(code: ErrorCode, message?: string, options?: MessageOptions): ErrorBody {
	return { code, message: message ?? errorMessage(code, options) };
}
