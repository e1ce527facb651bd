import { Navigate, Outlet } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { authCheckingSession } from "../../../shared/i18n/messages";
import { Spinner } from "../../components/basics/spinner";
import { useAuth } from "./auth-context";

function SessionCheck() {
	return (
		<div className="flex justify-center py-24 text-accent-600">
			<Spinner size="lg" label={authCheckingSession()} />
		</div>
	);
}

/** Renders its child routes for a signed-in user and sends everyone else to /login. */
export function RequireSignedIn() {
	const { user, isLoading } = useAuth();
	// Wait for the first session lookup: redirecting before it answers would bounce signed-in
	// users to /login on every reload.
	if (isLoading) return <SessionCheck />;
	if (!user) return <Navigate to={APP_PATHS.login} replace />;
	return <Outlet />;
}

/** Renders its child routes for a signed-out visitor and sends a signed-in user to /. */
export function RequireSignedOut() {
	const { user, isLoading } = useAuth();
	if (isLoading) return <SessionCheck />;
	if (user) return <Navigate to={APP_PATHS.generator} replace />;
	return <Outlet />;
}
