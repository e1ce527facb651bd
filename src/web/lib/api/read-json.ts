// Readers for the few answers the first page parses by hand (the session, error bodies, the
// public config): a schema library there would cost more than the rest of the page's own code
// (docs/decisions/005-first-load-budget.md). Everything else is parsed with the shared schemas.

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The string at `key`, or undefined when it is missing or not a string. */
export function readString(record: Record<string, unknown>, key: string): string | undefined {
	const value = record[key];
	return typeof value === "string" ? value : undefined;
}

/** `{ code, message }` from the body of a failed call: `{ error: { code, message } }`. */
export function readErrorBody(body: unknown): { code: string; message: string } | undefined {
	if (!isRecord(body) || !isRecord(body.error)) return undefined;
	const code = readString(body.error, "code");
	const message = readString(body.error, "message");
	return code !== undefined && message !== undefined ? { code, message } : undefined;
}
