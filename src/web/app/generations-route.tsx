// The history and the administrator's audit log load as one module: apart, the query code they
// share would be split into a chunk of its own that the first page then loads as well
// (docs/decisions/005-first-load-budget.md).
import { AuditLogPage } from "../features/admin/audit-log-page";
import { useAuth } from "../features/auth/auth-context";
import { GenerationsPage } from "../features/generations/generations-page";

export { AuditLogPage };

/** Hands the server's admin flag to the history, which may not import the auth feature itself. */
export function GenerationsRoute() {
	const { isAdmin, user } = useAuth();
	return <GenerationsPage isAdmin={isAdmin} viewerEmail={user?.email ?? null} />;
}
