/**
 * Milliseconds to wait from a Retry-After header, given as delay-seconds or as an HTTP date;
 * undefined when the header is missing or unreadable.
 */
export function parseRetryAfter(
	value: string | null,
	now: number = Date.now(),
): number | undefined {
	if (value === null) return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	// An HTTP date always names its month; without that, Date.parse would read "-5" as a year.
	if (!/[a-z]/i.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Milliseconds a server asks us to wait: `retry-after-ms` (OpenAI), else `Retry-After`. */
export function readRetryAfterMs(headers: Headers): number | undefined {
	const milliseconds = headers.get("retry-after-ms");
	if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) {
		return Math.ceil(Number(milliseconds));
	}
	return parseRetryAfter(headers.get("retry-after"));
}
