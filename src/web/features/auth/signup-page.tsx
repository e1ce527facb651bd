import { type FormEvent, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { checkNewPassword } from "../../../shared/account/passwords";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	fieldEmail,
	fieldEmailPlaceholder,
	signUpDescription,
	signUpFailed,
	signUpHaveAccount,
	signUpSignInLink,
	signUpSubmit,
	signUpTitle,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { FormCard } from "../../components/forms/form-card";
import { NewPasswordFields } from "../../components/forms/new-password-fields";
import { TextField } from "../../components/forms/text-field";
import { readAuthErrorMessage } from "../../lib/account/auth-errors";
import { useTypedBeforeHydration } from "../../lib/ui/use-typed-before-hydration";
import { useAuth } from "./auth-context";

export function SignupPage() {
	const { signUp } = useAuth();
	const navigate = useNavigate();
	const [email, setEmail] = useState("");
	const [password, setPassword] = useState("");
	const [confirmation, setConfirmation] = useState("");
	const [isSubmitting, setIsSubmitting] = useState(false);
	const formRef = useRef<HTMLFormElement>(null);
	useTypedBeforeHydration(formRef, {
		email: setEmail,
		password: setPassword,
		confirmPassword: setConfirmation,
	});
	const [errorMessage, setErrorMessage] = useState<string | null>(null);

	async function submitSignup(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const problem = checkNewPassword(password, confirmation);
		setErrorMessage(problem);
		if (problem) return;
		setIsSubmitting(true);
		try {
			await signUp({ email: email.trim(), password });
			await navigate(APP_PATHS.generator, { replace: true });
		} catch (error) {
			setErrorMessage(readAuthErrorMessage(error, signUpFailed()));
			setIsSubmitting(false);
		}
	}

	return (
		<FormCard
			title={signUpTitle()}
			description={signUpDescription()}
			footer={
				<>
					{signUpHaveAccount()}{" "}
					<Link
						to={APP_PATHS.login}
						className="font-semibold text-accent-700 underline-offset-4 hover:underline"
					>
						{signUpSignInLink()}
					</Link>
				</>
			}
		>
			{/* Sent by the browser itself only before the script has run (the page is prerendered):
			    POST, so the password never lands in a URL. */}
			<form ref={formRef} method="post" onSubmit={submitSignup} className="space-y-4">
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
				<NewPasswordFields
					kind="signup"
					password={password}
					confirmation={confirmation}
					onPasswordChange={setPassword}
					onConfirmationChange={setConfirmation}
				/>
				<AlertMessage message={errorMessage} />
				<Button type="submit" size="lg" isFullWidth isBusy={isSubmitting}>
					{signUpSubmit()}
				</Button>
			</form>
		</FormCard>
	);
}
