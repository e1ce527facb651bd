import type { Database } from "./database";

/** Any fixed number: every Atelier process on one database asks for the same lock. */
const STARTUP_LOCK_KEY = 7_146_020_311;

/**
 * Runs the start-up migrations (Better Auth's, ours, pg-boss's) while holding a PostgreSQL advisory
 * lock, so replicas that start together on a new database migrate one after another instead of
 * racing to create the same tables. The lock belongs to one connection: a process that dies while
 * holding it releases it with its connection. The embedded database has one process by design.
 */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
	if (database.kind === "pglite") return work();
	const client = await database.pool.connect();
	try {
		await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
		try {
			return await work();
		} finally {
			await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]);
		}
	} finally {
		client.release();
	}
}
