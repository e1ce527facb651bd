import { sql } from "kysely";
import type { Database } from "../db/database";

/**
 * The reset link's token the server made for a person (the one a mail to them carries), read where
 * Better Auth keeps it, for tests and benchmarks whose server logs its mail instead of sending it.
 * Free of the test runner, so the benchmarks bundle it too.
 */
export async function readResetToken(
	server: { database: Pick<Database, "db"> },
	userId: string,
): Promise<string> {
	const { rows } = await sql<{ identifier: string }>`
		select identifier from verification
		where value = ${userId} and identifier like 'reset-password:%'
		order by "createdAt" desc limit 1`.execute(server.database.db);
	const identifier = rows[0]?.identifier;
	if (!identifier) throw new Error(`no reset link was made for ${userId}`);
	return identifier.slice("reset-password:".length);
}
