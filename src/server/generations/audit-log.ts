import type { AuditLogPage } from "../../shared/history-responses";
import { selectAuditLogPage } from "./audit-log-repository";
import { decodeCursor, toCursorPage } from "./cursor-page";
import type { GenerationDeps } from "./generation-service";

/** The administrator's audit log, newest first (its route is behind the gate's allowAdminOnly). */
export async function listAuditLog(
	deps: Pick<GenerationDeps, "database">,
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
