// The history and the administrator's audit log load as one module: apart, the query code they
// share would be split into a chunk of its own that the first page then loads as well
// (docs/decisions/005-first-load-budget.md).

import { Navigate } from "react-router";
import { APP_PATHS } from "../../shared/app-routes";
import { AuditLogPage } from "../features/admin/audit-log-page";
import { useAuth } from "../features/auth/auth-context";
import { HistoryPage } from "../features/history/history-page";
import { TrashPage } from "../features/history/trash-page";

/** The Trash (`/trash`), in the history's module: it shares its query code and thumbnails. */
export function TrashRoute() {
	return <TrashPage />;
}

/** Hands the server's admin flag to the history, which may not import the auth feature itself. */
export function GenerationsRoute() {
	const { isAdmin, user } = useAuth();
	return <HistoryPage isAdmin={isAdmin} viewerEmail={user?.email ?? null} />;
}

/**
 * The audit log, for the administrator only (the server answers anyone else 404); others go home.
 * Checked here rather than by a guard in the route table, which would load with the first page.
 */
export function AuditLogRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <AuditLogPage /> : <Navigate to={APP_PATHS.generator} replace />;
}
