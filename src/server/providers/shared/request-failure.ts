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
