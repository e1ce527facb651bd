/** One outgoing request's abort signal: the caller's signal combined with a timeout. */
export type RequestDeadline = {
	signal: AbortSignal;
	timeoutMs: number;
	callerSignal: AbortSignal | undefined;
	timeoutSignal: AbortSignal;
};

export function createRequestDeadline(
	timeoutMs: number,
	callerSignal: AbortSignal | undefined,
): RequestDeadline {
	const timeoutSignal = AbortSignal.timeout(timeoutMs);
	const signal = callerSignal ? AbortSignal.any([callerSignal, timeoutSignal]) : timeoutSignal;
	return { signal, timeoutMs, callerSignal, timeoutSignal };
}

/** Resolves with the promise, or rejects as soon as the signal aborts (for steps fetch does not cover). */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(signal.reason);
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason);
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

// fetch reports every network failure as TypeError("fetch failed"); the useful part is the cause.
export function describeNetworkError(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const cause = error.cause;
	if (cause instanceof Error) {
		const code = "code" in cause && typeof cause.code === "string" ? `${cause.code}: ` : "";
		return `${error.message} (${code}${cause.message})`;
	}
	return error.message;
}
