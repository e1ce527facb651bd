import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema";

type AddressLimit = { windowSeconds: number; max: number };

/** Reset or verification e-mails one address may be sent, whoever asks: three an hour. */
export const MAIL_PER_ADDRESS_LIMIT: AddressLimit = { windowSeconds: 60 * 60, max: 3 };

/** The key of an address for one purpose; a hash, so the table never holds the address itself. */
export function addressKey(purpose: string, email: string): string {
	const digest = createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");
	return `${purpose}:${digest}`;
}

/**
 * Counts one request for `key` in a fixed window and says whether it is within the limit. One
 * statement, so two processes counting at once cannot both slip under it.
 */
export async function consumeAddressLimit(
	db: Kysely<DatabaseSchema>,
	key: string,
	limit: AddressLimit,
): Promise<{ isAllowed: boolean }> {
	const window = `${limit.windowSeconds} seconds`;
	const result = await sql<{ count: number }>`
		insert into address_rate_limits as limits (key, count, window_started_at)
		values (${key}, 1, now())
		on conflict (key) do update set
			count = case
				when limits.window_started_at <= now() - ${window}::interval then 1
				else limits.count + 1
			end,
			window_started_at = case
				when limits.window_started_at <= now() - ${window}::interval then now()
				else limits.window_started_at
			end
		returning count`.execute(db);
	// Forget windows that are long over, so the table stays as small as the traffic.
	await sql`delete from address_rate_limits where window_started_at < now() - interval '1 day'`.execute(
		db,
	);
	return { isAllowed: (result.rows[0]?.count ?? 0) <= limit.max };
}
