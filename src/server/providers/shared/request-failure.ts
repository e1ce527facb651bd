import { describeNetworkError, type RequestDeadline } from "../../net/request-deadline";
import { ProviderError } from "../types";

/**
 * What to throw when a request step failed: the caller's own abort reason untouched (a cancel is
 * not a provider failure), a retryable timeout, or a retryable network error. ProviderErrors pass
 * through unchanged.
 */
export function toRequestFailure(error: unknown, deadline: RequestDeadline, what: string): unknown {
	if (error instanceof ProviderError) return error;
	if (deadline.callerSignal?.aborted) return deadline.callerSignal.reason;
	if (deadline.timeoutSignal.aborted) {
		return new ProviderError(`${what} timed out after ${deadline.timeoutMs} ms`, {
			retryable: true,
			cause: error,
		});
	}
	return new ProviderError(`${what} failed: ${describeNetworkError(error)}`, {
		retryable: true,
		cause: error,
	});
}

// Failures to open a connection at all: the request never reached the service.
const CONNECT_FAILURE_CODES = new Set([
	"ECONNREFUSED",
	"EHOSTUNREACH",
	"ENETUNREACH",
	"EHOSTDOWN",
	"ENOTFOUND",
	"EAI_AGAIN",
	"UND_ERR_CONNECT_TIMEOUT",
]);

/** Whether an error, or one of its causes, says no connection to the service could be opened. */
export function isConnectFailure(error: unknown): boolean {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current instanceof Error && !seen.has(current)) {
		seen.add(current);
		const code = "code" in current ? current.code : undefined;
		if (typeof code === "string" && CONNECT_FAILURE_CODES.has(code)) return true;
		// Node tries each address of a host name; all failing gives an AggregateError.
		if (current instanceof AggregateError && current.errors.some(isConnectFailure)) return true;
		current = current.cause;
	}
	return false;
}

/** The same failure, marked as a service that cannot be reached (to be tried until the timeout). */
export function markUnreachable(error: ProviderError): ProviderError {
	return new ProviderError(error.message, {
		retryable: true,
		...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
		userMessage: error.userMessage,
		isUnreachable: true,
		cause: error.cause,
	});
}
