import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "./schema";

/** One request counted in a fixed window: how many so far, and when the window ends. */
export type WindowCount = { count: number; resetSeconds: number };

/**
 * Counts one request for `key` in a fixed window of the database's clock. One statement, so two
 * processes counting at once cannot both slip under a limit. Also used per API token
 * (auth/request-viewer.ts) and per person's uploads (uploads/store-upload.ts); the table is named for its first use, the
 * per-address limits of accounts/address-rate-limit.ts.
 */
export async function countInWindow(
	db: Kysely<DatabaseSchema>,
	key: string,
	windowSeconds: number,
): Promise<WindowCount> {
	const window = `${windowSeconds} seconds`;
	const result = await sql<{ count: number; reset_seconds: number | string }>`
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
		returning count,
			ceil(extract(epoch from (window_started_at + ${window}::interval - now()))) as reset_seconds`.execute(
		db,
	);
	// Forget windows that are long over, so the table stays as small as the traffic.
	await sql`delete from address_rate_limits where window_started_at < now() - interval '1 day'`.execute(
		db,
	);
	const row = result.rows[0];
	return {
		count: row?.count ?? 0,
		resetSeconds: Math.max(0, Math.ceil(Number(row?.reset_seconds ?? windowSeconds))),
	};
}
