// No schema library here: a pure rule, for the server's request check and any form that wants it.

/**
 * Characters a database text cannot hold: NUL (PostgreSQL and PGlite refuse it) and a UTF-16
 * surrogate without its pair (stored as U+FFFD, so the text would change on the way in).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character this finds.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a character that a database text cannot hold. */
export function hasUnstorableCharacter(text: string): boolean {
	return UNSTORABLE.test(text);
}

/** What the VALIDATION_ERROR answer says of a field holding such a character. */
export function unstorableTextMessage(field: string): string {
	// A key may be the field at fault: its name is shown with the character replaced.
	const name = field.replace(new RegExp(UNSTORABLE.source, "g"), "\uFFFD");
	return `${name} contains a character that cannot be stored (a NUL or a lone surrogate).`;
}

/**
 * The first field of a parsed JSON value holding such a character, in its key or its text, named
 * as a path (`settings.negativePrompt`, `ids[2]`); undefined when every text can be stored.
 */
export function findUnstorableField(value: unknown, path = ""): string | undefined {
	if (typeof value === "string") return hasUnstorableCharacter(value) ? path || "body" : undefined;
	if (Array.isArray(value)) {
		for (const [index, item] of value.entries()) {
			const found = findUnstorableField(item, `${path}[${index}]`);
			if (found !== undefined) return found;
		}
		return undefined;
	}
	if (value !== null && typeof value === "object") {
		for (const [key, item] of Object.entries(value)) {
			const field = path ? `${path}.${key}` : key;
			if (hasUnstorableCharacter(key)) return field;
			const found = findUnstorableField(item, field);
			if (found !== undefined) return found;
		}
	}
	return undefined;
}
