import { ForgotPasswordPage } from "../../features/account/forgot-password-page";
import { ResetPasswordPage } from "../../features/account/reset-password-page";
import { VerifyEmailPage } from "../../features/account/verify-email-page";
import { useAuth } from "../../features/auth/auth-context";

export function ForgotPasswordRoute() {
	return <ForgotPasswordPage />;
}

/** "Set a new password": signs the browser in through the auth state once the server has. */
export function ResetPasswordRoute() {
	const { refreshSession } = useAuth();
	return <ResetPasswordPage onSignedIn={refreshSession} />;
}

/** Where the verification link lands. */
export function VerifyEmailRoute() {
	const { user, refreshSession } = useAuth();
	return <VerifyEmailPage user={user} onVerified={refreshSession} />;
}
