import { Navigate } from "react-router";
import { PeoplePage } from "../features/admin/people-page";
import { useAuth } from "../features/auth/auth-context";

/**
 * The People page, for the administrator only (the server answers anyone else 404); others go
 * home. Checked here rather than by a guard in the route table, which would load with the first page.
 */
export function PeopleRoute() {
	const { isAdmin } = useAuth();
	return isAdmin ? <PeoplePage /> : <Navigate to="/" replace />;
}
