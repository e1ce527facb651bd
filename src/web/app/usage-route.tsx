import { Navigate } from "react-router";
import { UsagePage } from "../features/admin/usage-page";
import { useAuth } from "../features/auth/auth-context";

/**
 * The usage report, for the administrator only (the server answers anyone else 404); others go
 * home. Checked here, as the audit log does, rather than by a guard that would load with the first page.
 */
export function UsageRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <UsagePage /> : <Navigate to="/" replace />;
}
