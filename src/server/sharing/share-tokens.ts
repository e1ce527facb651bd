import { createHash, randomBytes } from "node:crypto";

/** A link's token: 32 random bytes (256 bits) in base64url, unrelated to what it shows. */
export function makeShareToken(): string {
	return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: its SHA-256, so a dump of the table opens no link. */
export function hashShareToken(token: string): string {
	return createHash("sha256").update(token).digest("base64url");
}

/** A token's form (43 base64url characters); anything else is refused without asking the database. */
export function isShareTokenShape(token: string): boolean {
	return /^[A-Za-z0-9_-]{43}$/.test(token);
}
