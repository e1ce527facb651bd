import { useAuth } from "../features/auth/auth-context";
import { GenerationsPage } from "../features/generations/generations-page";

/** Hands the server's admin flag to the history, which may not import the auth feature itself. */
export function GenerationsRoute() {
	const { isAdmin, user } = useAuth();
	return <GenerationsPage isAdmin={isAdmin} viewerEmail={user?.email ?? null} />;
}
