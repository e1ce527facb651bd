import type { AuditLogPage } from "../../shared/history/history-responses";
import { decodeCursor, toCursorPage } from "../db/cursor-page";
import type { Database } from "../db/database";
import { selectAuditLogPage } from "./audit-log-repository";

/** The administrator's audit log, newest first (its route is behind the gate's allowAdminOnly). */
export async function listAuditLog(
	deps: { database: Database },
	query: { cursor?: string | undefined; limit: number },
): Promise<AuditLogPage> {
	const rows = await selectAuditLogPage(deps.database.db, {
		cursor: decodeCursor(query.cursor),
		limit: query.limit + 1,
	});
	return toCursorPage(rows, query.limit, (row) => ({
		...row,
		created_at: row.created_at.toISOString(),
	}));
}
