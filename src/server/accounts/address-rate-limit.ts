import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { countInWindow } from "../db/rate-limit-windows";
import type { DatabaseSchema } from "../db/schema";

type AddressLimit = { windowSeconds: number; max: number };

/** Reset or verification e-mails one address may be sent, whoever asks: three an hour. */
export const MAIL_PER_ADDRESS_LIMIT: AddressLimit = { windowSeconds: 60 * 60, max: 3 };

/** The key of an address for one purpose; a hash, so the table never holds the address itself. */
export function addressKey(purpose: string, email: string): string {
	const digest = createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");
	return `${purpose}:${digest}`;
}

/** Counts one request for `key` and says whether it is within the limit. */
export async function consumeAddressLimit(
	db: Kysely<DatabaseSchema>,
	key: string,
	limit: AddressLimit,
): Promise<{ isAllowed: boolean }> {
	const { count } = await countInWindow(db, key, limit.windowSeconds);
	return { isAllowed: count <= limit.max };
}
