import { lazy, Suspense } from "react";
import { useAuth } from "../../features/auth/auth-context";
import { GeneratorPage } from "../../features/generator/page/generator-page";

// Only someone whose address is not verified yet ever sees it.
const ResendVerificationButton = lazy(async () => ({
	default: (await import("../../features/account/resend-verification-button"))
		.ResendVerificationButton,
}));

/** Hands the auth state to the generator, which may not import the auth feature itself. */
export function GeneratorRoute() {
	const { user, isLoading } = useAuth();
	return (
		<GeneratorPage
			isSignedIn={user !== null}
			isAuthLoading={isLoading}
			verificationAction={
				user && !user.emailVerified ? (
					<Suspense fallback={null}>
						<ResendVerificationButton email={user.email} />
					</Suspense>
				) : undefined
			}
		/>
	);
}
