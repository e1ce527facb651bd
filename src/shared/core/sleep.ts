// The one wait of the app, on both sides: the server's runs between provider checks, the
// browser's polls between their answers.

/**
 * Resolves after `milliseconds`, or rejects with the signal's reason (an AbortError unless the
 * abort named another) as soon as `signal` aborts, at once if it already has.
 */
export function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) {
			reject(signal.reason);
			return;
		}
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, milliseconds);
		function onAbort() {
			clearTimeout(timer);
			reject(signal.reason);
		}
		signal.addEventListener("abort", onAbort, { once: true });
	});
}
