import { useAuth } from "../features/auth/auth-context";
import { GeneratorPage } from "../features/generator/generator-page";

/** Hands the auth state to the generator, which may not import the auth feature itself. */
export function GeneratorRoute() {
	const { user, isLoading } = useAuth();
	return <GeneratorPage isSignedIn={user !== null} isAuthLoading={isLoading} />;
}
