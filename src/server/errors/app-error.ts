import { ERRORS, type ErrorCode, type ErrorStatus } from "../../shared/errors";

/**
 * An error with a catalogue code, thrown by any floor; http/errors.ts renders it as the one error
 * envelope.
 */
export class AppError extends Error {
	readonly code: ErrorCode;
	readonly status: ErrorStatus;
	/** Sent as Retry-After: when trying again is expected to succeed (503 and 429). */
	readonly retryAfterSeconds: number | undefined;
	/** Whether it was thrown with a message of its own rather than its code's, which is translated. */
	readonly hasOwnMessage: boolean;

	constructor(
		code: ErrorCode,
		message?: string,
		options?: { cause?: unknown; retryAfterSeconds?: number },
	) {
		super(message ?? ERRORS[code].message, options);
		this.name = "AppError";
		this.code = code;
		this.status = ERRORS[code].status;
		this.retryAfterSeconds = options?.retryAfterSeconds;
		this.hasOwnMessage = message !== undefined;
	}
}
