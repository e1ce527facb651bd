import { createHash } from "node:crypto";
import { CompiledQuery } from "kysely";
import PgBoss from "pg-boss";
import type { Database } from "../db/database";
import type { Logger } from "../logging/logger";

export type SqlExecutor = {
	executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
};

/** Lets pg-boss run its statements on our pool (PGlite has exactly one session to share). */
function createPoolExecutor(database: Database): SqlExecutor {
	return {
		executeSql: (text, values) => database.pool.query(text, values),
	};
}

/** A Kysely transaction (or any Kysely executor) a job can be written in, to commit with it. */
export type JobTransaction = { executeQuery: Database["db"]["executeQuery"] };

/** Lets pg-boss write its job inside a Kysely transaction. */
export function createTransactionExecutor(transaction: JobTransaction): SqlExecutor {
	return {
		async executeSql(text, values) {
			const result = await transaction.executeQuery(CompiledQuery.raw(text, values));
			return { rows: [...result.rows] };
		},
	};
}

/**
 * The one pg-boss of a server process, shared by every queue (generations, webhook deliveries):
 * jobs live in the database, so they survive restarts and spread over every process on it.
 */
/** The PostgreSQL schema of pg-boss's tables. */
export const JOB_SCHEMA = "pgboss";

export async function startJobQueue(options: {
	database: Database;
	logger: Logger;
}): Promise<PgBoss> {
	const boss = new PgBoss({
		db: createPoolExecutor(options.database) as PgBoss.Db,
		schema: JOB_SCHEMA,
		supervise: true,
		schedule: false,
		migrate: true,
		maintenanceIntervalSeconds: 120,
	});
	boss.on("error", (error) => options.logger.error("job queue error", { error }));
	await boss.start();
	return boss;
}

/** Stops every worker of the process's pg-boss, letting jobs under way finish for a while. */
export async function stopJobQueue(boss: PgBoss): Promise<void> {
	await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
}

/**
 * A job id derived from `name` (a UUID, as pg-boss wants, shaped from its SHA-256): queueing the
 * same named job twice (two processes, a retried transaction) is then a no-op.
 */
export function jobIdFromName(name: string): string {
	const hex = createHash("sha256").update(name).digest("hex");
	return [
		hex.slice(0, 8),
		hex.slice(8, 12),
		`5${hex.slice(13, 16)}`,
		((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16) + hex.slice(18, 20),
		hex.slice(20, 32),
	].join("-");
}
