import type { AuditLogPage } from "../../shared/history-responses";
import { AppError } from "../http/errors";
import { selectAuditLogPage } from "./audit-log-repository";
import { decodeCursor, toCursorPage } from "./cursor-page";
import type { GenerationDeps, Viewer } from "./generation-service";

/** The administrator's audit log, newest first; anyone else learns nothing. */
export async function listAuditLog(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	query: { cursor?: string | undefined; limit: number },
): Promise<AuditLogPage> {
	if (!viewer.isAdmin) throw new AppError("NOT_FOUND");
	const rows = await selectAuditLogPage(deps.database.db, {
		cursor: decodeCursor(query.cursor),
		limit: query.limit + 1,
	});
	return toCursorPage(rows, query.limit, (row) => ({
		...row,
		created_at: row.created_at.toISOString(),
	}));
}
