import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { AccountPage } from "../features/account/account-page";
import { useAuth } from "../features/auth/auth-context";
import { fetchPublicConfig, PUBLIC_CONFIG_QUERY_KEY } from "../features/generator/public-config";
import { showToast } from "../lib/toast";

/** Hands the signed-in person and the server's settings to the account page. */
export function AccountRoute() {
	const { user, session, forgetSession } = useAuth();
	const navigate = useNavigate();
	const config = useQuery({ queryKey: PUBLIC_CONFIG_QUERY_KEY, queryFn: fetchPublicConfig });
	if (!user || !session) return null;
	return (
		<AccountPage
			user={user}
			currentSessionId={session.id}
			isEmailVerificationRequired={config.data?.emailVerificationRequired ?? false}
			onDeleted={async () => {
				// Leave first: on a signed-in-only screen, forgetting the session would redirect to /login.
				await navigate("/", { replace: true });
				await forgetSession();
				void showToast("success", "Your account and everything in it were deleted.");
			}}
		/>
	);
}
