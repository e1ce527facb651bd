// No schema library here: the browser imports this module. The first page imports only the
// entries it shows by itself, first-page-errors.ts (docs/decisions/005-first-load-budget.md).
import { FIRST_PAGE_ERRORS } from "./first-page-errors";

/** The HTTP statuses the API answers errors with: each one a status that carries a body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 410 | 413 | 422 | 429 | 451 | 500 | 502 | 503;

/**
 * One error model end to end: each code has its HTTP status and the user message of the error
 * catalogue (SPEC.md section 8) where the catalogue gives one.
 */
export const ERRORS = {
	...FIRST_PAGE_ERRORS,
	VALIDATION_ERROR: {
		status: 400,
		message: "Invalid input. Please check your data and try again.",
	},
	AUTH_ERROR: { status: 401, message: "Authentication failed. Please log in again." },
	NOT_FOUND: { status: 404, message: "Not found." },
	PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is too large." },
	QUOTA_EXCEEDED: {
		status: 429,
		message: "You have reached the limit of generations. Please try again later.",
	},
	RATE_LIMITED: { status: 429, message: "Too many requests. Please try again later." },
	SERVICE_UNAVAILABLE: {
		status: 503,
		message: "The service is temporarily unavailable. Please try again in a moment.",
	},
	FOREIGN_ORIGIN: {
		status: 403,
		message: "This request came from another site and was refused.",
	},
	ADMIN_ACCOUNT_PROTECTED: {
		status: 403,
		message: "The administrator's account (ADMIN_EMAIL) cannot be deleted.",
	},
	SIGN_IN_AGAIN: {
		status: 403,
		message: "For your safety, sign out and in again, then delete your account.",
	},
	TOKEN_SCOPE_MISSING: {
		status: 403,
		message: "This API token does not have the scope this request needs.",
	},
	TOKEN_NOT_ALLOWED: {
		status: 403,
		message: "API tokens cannot do this. Please sign in in the browser.",
	},
	IDEMPOTENCY_KEY_REUSED: {
		status: 422,
		message:
			"This Idempotency-Key was already used with a different request. Use a new key for a new request.",
	},
	ACCOUNT_DISABLED: {
		status: 403,
		message: "This account has been disabled by the administrator.",
	},
	BOARD_READ_ONLY: {
		status: 403,
		message: "This board is shared with you to look at: only its owner can change it.",
	},
	PROMPT_BLOCKED: { status: 400, message: "This prompt is not allowed." },
	SHARE_ENDED: { status: 410, message: "This link has ended." },
	SHARE_HIDDEN: { status: 451, message: "This link was taken down." },
	SHARE_FLAGGED: { status: 422, message: "These images cannot be shared." },
	ENHANCE_NOT_CONFIGURED: {
		status: 404,
		message: "Enhance is not configured on this server.",
	},
	ENHANCE_FAILED: {
		status: 502,
		message: "The prompt could not be enhanced right now. Please try again later.",
	},
	ENHANCE_REFUSED: {
		status: 422,
		message: "The assistant would not rewrite this prompt. Please change it or write it yourself.",
	},
	GOOGLE_NOT_CONFIGURED: {
		status: 400,
		message: "Google sign-in is not configured on this server.",
	},
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

export function errorBody(code: ErrorCode, message?: string): ErrorBody {
	return { code, message: message ?? ERRORS[code].message };
}
