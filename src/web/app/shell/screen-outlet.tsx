import { Outlet, useLocation } from "react-router";
import { ErrorBoundary } from "./error-boundary";

/** A layout's screen: one that fails to render shows the error fallback in its place. */
export function ScreenOutlet() {
	const { pathname } = useLocation();
	// Keyed by path, so moving to another screen also clears a failed one.
	return (
		<ErrorBoundary key={pathname}>
			<Outlet />
		</ErrorBoundary>
	);
}
