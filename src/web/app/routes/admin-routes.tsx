import { Navigate } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { PeoplePage } from "../../features/admin/people-page";
import { SharesPage } from "../../features/admin/shares-page";
import { UsagePage } from "../../features/admin/usage-page";
import { useAuth } from "../../features/auth/auth-context";

// The administrator's People and Usage screens, one lazy module: each lazy import costs the first
// page its loader and the list of chunks it preloads (docs/decisions/005-first-load-budget.md).
// Checked here rather than by a guard in the route table, which would load with the first page;
// the server answers anyone but the administrator 404.

/** The People page, for the administrator only; others go home. */
export function PeopleRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <PeoplePage /> : <Navigate to={APP_PATHS.generator} replace />;
}

/** The usage report, for the administrator only; others go home. */
export function UsageRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <UsagePage /> : <Navigate to={APP_PATHS.generator} replace />;
}

/** Shared links and their reports, for the administrator only; others go home. */
export function SharesRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <SharesPage /> : <Navigate to={APP_PATHS.generator} replace />;
}
