import { type FormEvent, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	fieldEmail,
	fieldEmailPlaceholder,
	fieldPassword,
	signInDescription,
	signInFailed,
	signInForgotPassword,
	signInNoAccount,
	signInSignUpLink,
	signInSubmit,
	signInTitle,
	signInWithGoogle,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { FormCard } from "../../components/forms/form-card";
import { PasswordField } from "../../components/forms/password-field";
import { TextField } from "../../components/forms/text-field";
import { readAuthErrorMessage } from "../../lib/account/auth-errors";
import { useTypedBeforeHydration } from "../../lib/ui/use-typed-before-hydration";
import { useAuth } from "./auth-context";
import { formatGoogleSignInError, GoogleSignInButton } from "./google-sign-in-button";
import { describeOAuthError } from "./oauth-error-reasons";
import { OrDivider } from "./or-divider";

export function LoginPage() {
	const { signIn } = useAuth();
	const navigate = useNavigate();
	const [searchParams] = useSearchParams();
	const [email, setEmail] = useState("");
	const [password, setPassword] = useState("");
	const [isSubmitting, setIsSubmitting] = useState(false);
	const formRef = useRef<HTMLFormElement>(null);
	useTypedBeforeHydration(formRef, { email: setEmail, password: setPassword });
	// A failed Google flow comes back here as /login?error=<code>.
	const [errorMessage, setErrorMessage] = useState<string | null>(() => {
		const oauthError = searchParams.get("error");
		return oauthError ? formatGoogleSignInError(describeOAuthError(oauthError)) : null;
	});

	async function submitLogin(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		setErrorMessage(null);
		setIsSubmitting(true);
		try {
			await signIn({ email: email.trim(), password });
			await navigate(APP_PATHS.generator, { replace: true });
		} catch (error) {
			setErrorMessage(readAuthErrorMessage(error, signInFailed()));
			setIsSubmitting(false);
		}
	}

	return (
		<FormCard
			title={signInTitle()}
			description={signInDescription()}
			footer={
				<>
					{signInNoAccount()}{" "}
					<Link
						to={APP_PATHS.signup}
						className="font-semibold text-accent-700 underline-offset-4 hover:underline"
					>
						{signInSignUpLink()}
					</Link>
				</>
			}
		>
			{/* Sent by the browser itself only before the script has run (the page is prerendered):
			    POST, so the password never lands in a URL. */}
			<form ref={formRef} method="post" onSubmit={submitLogin} className="space-y-4">
				<TextField
					label={fieldEmail()}
					name="email"
					type="email"
					autoComplete="email"
					placeholder={fieldEmailPlaceholder()}
					required
					value={email}
					onChange={(event) => setEmail(event.target.value)}
				/>
				<div>
					<PasswordField
						label={fieldPassword()}
						name="password"
						autoComplete="current-password"
						required
						value={password}
						onChange={(event) => setPassword(event.target.value)}
					/>
					<p className="mt-1.5 text-right text-sm">
						<Link
							to={APP_PATHS["forgot-password"]}
							className="font-medium text-accent-700 underline-offset-4 hover:underline"
						>
							{signInForgotPassword()}
						</Link>
					</p>
				</div>
				<AlertMessage message={errorMessage} />
				<Button type="submit" size="lg" isFullWidth isBusy={isSubmitting}>
					{signInSubmit()}
				</Button>
			</form>
			<OrDivider />
			<GoogleSignInButton
				label={signInWithGoogle()}
				size="lg"
				isFullWidth
				onStart={() => setErrorMessage(null)}
				onError={setErrorMessage}
			/>
		</FormCard>
	);
}
