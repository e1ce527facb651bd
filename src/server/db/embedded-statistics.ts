import { sql } from "kysely";
import type { Logger } from "../logging/logger";
import type { Database } from "./database";

/** The tables whose statistics the history's (a board's page too) and the People page's plans depend on. */
const TABLES = ["generations", "generation_search", "board_generations", "people"] as const;

/** How often the embedded database's statistics are looked at. */
const STATISTICS_CHECK_INTERVAL_MS = 5 * 60_000;

/**
 * Brings the planner's statistics up to date when the history has grown or shrunk by more than
 * 50 rows and 10% since they were taken, as PostgreSQL's autovacuum would (its default analyze
 * threshold). PGlite has no autovacuum: without this its planner never learns how many rows there
 * are or how often a word appears, and picks plans that read thousands of rows for a broad search.
 * Returns whether it analyzed.
 */
export async function refreshStatistics(database: Pick<Database, "db">): Promise<boolean> {
	const { rows } = await sql<{
		analyzed: number;
		current: string;
		people_analyzed: number;
		people_current: string;
	}>`
		select
			(select reltuples from pg_class where oid = 'generation_search'::regclass) as analyzed,
			(select coalesce(sum(total), 0) from generation_counts) as current,
			(select reltuples from pg_class where oid = 'people'::regclass) as people_analyzed,
			(select count(*) from people) as people_current`.execute(database.db);
	const row = rows[0];
	// -1: never analyzed.
	const isStale = (analyzed: number, current: number) =>
		analyzed < 0 || Math.abs(current - analyzed) > 50 + 0.1 * analyzed;
	if (
		!isStale(Number(row?.analyzed ?? -1), Number(row?.current ?? 0)) &&
		!isStale(Number(row?.people_analyzed ?? -1), Number(row?.people_current ?? 0))
	) {
		return false;
	}
	await sql`analyze ${sql.join(TABLES.map((table) => sql.table(table)))}`.execute(database.db);
	return true;
}

/** Checks the embedded database's statistics now and every few minutes; returns the stop. */
export function keepStatisticsFresh(
	database: Pick<Database, "db">,
	logger: Logger,
	intervalMs = STATISTICS_CHECK_INTERVAL_MS,
): () => void {
	const check = () => {
		refreshStatistics(database).catch((error: unknown) =>
			logger.warn("refreshing the database's statistics failed", { error }),
		);
	};
	check();
	const timer = setInterval(check, intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}
