// The history and the administrator's audit log load as one module: apart, the query code they
// share would be split into a chunk of its own that the first page then loads as well
// (docs/decisions/005-first-load-budget.md). The mask editor's route is here too, its screen a
// chunk of its own: one import() fewer on the first page.

import { lazy } from "react";
import { Navigate } from "react-router";
import { APP_PATHS } from "../../shared/app-routes";
import { AuditLogPage } from "../features/admin/audit-log-page";
import { useAuth } from "../features/auth/auth-context";
import { HistoryPage } from "../features/history/history-page";

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

/** The mask editor (/edit), loaded only when opened. */
export const EditorRoute = lazy(async () => ({
	default: (await import("../features/editor/editor-page")).EditorPage,
}));
