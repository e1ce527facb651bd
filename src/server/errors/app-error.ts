import { ERRORS, type ErrorCode, type ErrorStatus } from "../../shared/core/errors";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";

/**
 * A message of its own written in the language it is asked in: a catalogue message with its
 * parameters (`(options) => tokenScopeMissing({ scope }, options)`), rendered in the request's.
 */
export type LocalizedMessage = (options: { language: Language }) => string;

/**
 * An error with a catalogue code, thrown by any floor; http/errors.ts renders it as the one error
 * envelope.
 */
export class AppError extends Error {
	readonly code: ErrorCode;
	readonly status: ErrorStatus;
	/** Sent as Retry-After: when trying again is expected to succeed (503 and 429). */
	readonly retryAfterSeconds: number | undefined;
	/**
	 * The message of its own it was thrown with, rather than its code's: a localized one is written
	 * in the request's language, a text is sent as written (the English the logs read is `message`).
	 */
	readonly ownMessage: string | LocalizedMessage | undefined;

	constructor(
		code: ErrorCode,
		message?: string | LocalizedMessage,
		options?: { cause?: unknown; retryAfterSeconds?: number },
	) {
		super(
			typeof message === "function"
				? message({ language: DEFAULT_LANGUAGE })
				: (message ?? ERRORS[code].message),
			options,
		);
		this.name = "AppError";
		this.code = code;
		this.status = ERRORS[code].status;
		this.retryAfterSeconds = options?.retryAfterSeconds;
		this.ownMessage = message;
	}

	/** Whether it was thrown with a message of its own rather than its code's. */
	get hasOwnMessage(): boolean {
		return this.ownMessage !== undefined;
	}
}
