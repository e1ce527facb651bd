/** The token of an `Authorization: Bearer <token>` header; undefined without one. */
export function readBearerToken(headers: Headers): string | undefined {
	const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
	return match?.[1];
}

/**
 * Whether the request authenticates with a token rather than a cookie. Such a request skips the
 * Origin check (origin-check.ts): a browser never adds an Authorization header on its own, so
 * another site cannot forge one, and the cookie is never read for it.
 */
export function hasBearerToken(headers: Headers): boolean {
	return /^Bearer\b/i.test(headers.get("authorization") ?? "");
}
