import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { appAccountDeleted } from "../../../shared/i18n/messages";
import { AccountPage } from "../../features/account/account-page";
import { useAuth } from "../../features/auth/auth-context";
import { usePublicConfig } from "../../lib/api/public-config";
import { showToast } from "../../lib/ui/toast";

/** Hands the signed-in person and the server's settings to the account page. */
export function AccountRoute() {
	const { user, session, forgetSession } = useAuth();
	const navigate = useNavigate();
	const config = usePublicConfig();
	const isDeleted = useRef(false);

	// Forget the deleted account only once this signed-in-only screen is gone: forgetting it while
	// the screen is still shown would send the person to /login instead of home.
	useEffect(
		() => () => {
			if (isDeleted.current) void forgetSession();
		},
		[forgetSession],
	);

	if (!user || !session) return null;
	return (
		<AccountPage
			user={user}
			currentSessionId={session.id}
			isEmailVerificationRequired={config.data?.emailVerificationRequired ?? false}
			onDeleted={async () => {
				isDeleted.current = true;
				void showToast("success", appAccountDeleted());
				await navigate(APP_PATHS.generator, { replace: true });
			}}
		/>
	);
}
