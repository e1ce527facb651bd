import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ERRORS, type ErrorCode, type ErrorEnvelope, errorBody } from "../../shared/core/errors";
import { isDatabaseUnavailableError } from "../db/database";
import { AppError, type LocalizedMessage } from "../errors/app-error";
import { readRequestLanguage } from "../i18n/request-language";
import type { Logger } from "../logging/logger";

/**
 * The envelope of a code, its catalogue message in the request's language unless one is given (a
 * localized one written in that language too).
 */
export function errorResponse(
	context: Context,
	code: ErrorCode,
	message?: string | LocalizedMessage,
): Response {
	const language = readRequestLanguage(context.req.raw.headers);
	const text = typeof message === "function" ? message({ language }) : message;
	const body: ErrorEnvelope = { success: false, error: errorBody(code, text, { language }) };
	return context.json(body, ERRORS[code].status);
}

function codeForHttpStatus(status: number): ErrorCode {
	if (status === 401 || status === 403) return "AUTH_ERROR";
	if (status === 404) return "NOT_FOUND";
	if (status === 413) return "PAYLOAD_TOO_LARGE";
	if (status === 429) return "RATE_LIMITED";
	if (status === 503) return "SERVICE_UNAVAILABLE";
	if (status >= 400 && status < 500) return "VALIDATION_ERROR";
	return "UNKNOWN_ERROR";
}

/** Renders any thrown error as `{ success: false, error: { code, message } }`; unknown errors are logged, never leaked. */
export function handleError(error: unknown, context: Context, logger: Logger): Response {
	if (error instanceof AppError) {
		if (error.retryAfterSeconds !== undefined) {
			context.header("Retry-After", String(error.retryAfterSeconds));
		}
		// A message of its own (a refusal naming its field): in the request's language where it is
		// the catalogue's, else as written.
		return errorResponse(context, error.code, error.ownMessage);
	}
	if (error instanceof HTTPException) {
		const code = codeForHttpStatus(error.status);
		return errorResponse(context, code);
	}
	const requestId = context.get("requestId");
	if (isDatabaseUnavailableError(error)) {
		logger.error("database unavailable", { requestId, error });
		return errorResponse(context, "SERVICE_UNAVAILABLE");
	}
	logger.error("unhandled error", {
		requestId,
		method: context.req.method,
		path: context.req.path,
		error,
	});
	return errorResponse(context, "UNKNOWN_ERROR");
}
