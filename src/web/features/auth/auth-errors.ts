import { isRecord, readErrorBody, readString } from "../../lib/read-json";

export const LOGIN_FAILED_MESSAGE = "Login failed";
export const SIGNUP_FAILED_MESSAGE = "Signup failed";
export const GOOGLE_SIGN_IN_FAILED_MESSAGE = "Google sign-in failed";
export const SIGN_OUT_FAILED_MESSAGE = "Sign out failed. Please try again.";

/** An auth request the server refused; `serverMessage` is its message when it sent one. */
export class AuthActionError extends Error {
	readonly serverMessage: string | undefined;

	constructor(serverMessage: string | undefined) {
		const message = serverMessage?.trim() ? serverMessage.trim() : undefined;
		super(message ?? "The authentication request failed");
		this.name = "AuthActionError";
		this.serverMessage = message;
	}
}

/**
 * The message in an error the auth client returned. Better Auth's own endpoints answer
 * `{ code, message }`; our server's checks in front of them answer the shared error envelope
 * `{ success: false, error: { code, message } }`; the client spreads either body into its error.
 */
export function readServerErrorMessage(error: unknown): string | undefined {
	const envelope = readErrorBody(error);
	if (envelope) return envelope.message;
	return isRecord(error) ? readString(error, "message") : undefined;
}

/** The server's message for a failed auth action, or `fallback` when there is none to show. */
export function readAuthErrorMessage(error: unknown, fallback: string): string {
	if (error instanceof AuthActionError && error.serverMessage) return error.serverMessage;
	return fallback;
}

/** "Google sign-in failed", followed by the reason when one is known. */
export function formatGoogleSignInError(reason: string | undefined): string {
	return reason ? `${GOOGLE_SIGN_IN_FAILED_MESSAGE}: ${reason}` : GOOGLE_SIGN_IN_FAILED_MESSAGE;
}
