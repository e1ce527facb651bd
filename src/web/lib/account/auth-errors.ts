// The errors of calls through Better Auth's client, for signing in and out and for the account's
// own actions alike. Only modules that load on demand import this file: the auth client's module
// converts the client's errors, so the first page does without it (the Google button's words are
// in google-sign-in-button.tsx). It reads bodies by hand (read-json.ts), as the first page does.
import { isRecord, readErrorBody, readString } from "../api/read-json";

export const LOGIN_FAILED_MESSAGE = "Login failed";
export const SIGNUP_FAILED_MESSAGE = "Signup failed";
export const SIGN_OUT_FAILED_MESSAGE = "Sign out failed. Please try again.";

/**
 * An auth or account action the server refused: `serverMessage` is the words it sent, when it sent
 * some, and `code` its code (Better Auth's, like `INVALID_TOKEN`, or ours from the error envelope).
 */
export class AuthActionError extends Error {
	readonly serverMessage: string | undefined;
	readonly code: string | undefined;

	constructor(serverMessage: string | undefined, code?: string) {
		const message = serverMessage?.trim() ? serverMessage.trim() : undefined;
		super(message ?? "The authentication request failed");
		this.name = "AuthActionError";
		this.serverMessage = message;
		this.code = code;
	}
}

/**
 * The error the auth client returned, as an AuthActionError. Better Auth's own endpoints answer
 * `{ code, message }`; our server's checks in front of them answer the shared error envelope
 * `{ success: false, error: { code, message } }`; the client spreads either body into its error.
 */
export function toAuthActionError(error: unknown): AuthActionError {
	const envelope = readErrorBody(error);
	if (envelope) return new AuthActionError(envelope.message, envelope.code);
	if (!isRecord(error)) return new AuthActionError(undefined);
	return new AuthActionError(readString(error, "message"), readString(error, "code"));
}

/** The server's message for a failed auth action, or `fallback` when there is none to show. */
export function readAuthErrorMessage(error: unknown, fallback: string): string {
	if (error instanceof AuthActionError && error.serverMessage) return error.serverMessage;
	return fallback;
}
