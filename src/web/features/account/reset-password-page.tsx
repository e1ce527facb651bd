import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { checkNewPassword } from "../../../shared/account/passwords";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	accountResetBackToSignIn,
	accountResetDescription,
	accountResetDone,
	accountResetExpiredDescription,
	accountResetExpiredTitle,
	accountResetSendNewLink,
	accountResetSubmit,
	accountResetTitle,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { FormCard } from "../../components/forms/form-card";
import { NewPasswordFields } from "../../components/forms/new-password-fields";
import { resetPassword } from "../../lib/account/account-requests";
import { AuthActionError } from "../../lib/account/auth-errors";
import { showToast } from "../../lib/ui/toast";
import { RequestResetForm } from "./request-reset-form";

type ResetPasswordPageProps = {
	/** Called once the server has set the password and signed this browser in. */
	onSignedIn: () => Promise<void>;
};

function ExpiredLink() {
	return (
		<FormCard
			title={accountResetExpiredTitle()}
			description={accountResetExpiredDescription()}
			footer={
				<Link
					to={APP_PATHS.login}
					className="font-semibold text-accent-700 underline-offset-4 hover:underline"
				>
					{accountResetBackToSignIn()}
				</Link>
			}
		>
			<RequestResetForm submitLabel={accountResetSendNewLink()} />
		</FormCard>
	);
}

/** "Set a new password", reached from the link in the reset e-mail. */
export function ResetPasswordPage({ onSignedIn }: ResetPasswordPageProps) {
	const [searchParams] = useSearchParams();
	const navigate = useNavigate();
	const token = searchParams.get("token");
	const [password, setPassword] = useState("");
	const [confirmation, setConfirmation] = useState("");
	const [isSubmitting, setIsSubmitting] = useState(false);
	const [isExpired, setIsExpired] = useState(() => !token || searchParams.has("error"));
	const [errorMessage, setErrorMessage] = useState<string | null>(null);

	if (isExpired || !token) return <ExpiredLink />;

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const problem = checkNewPassword(password, confirmation);
		setErrorMessage(problem);
		if (problem || !token) return;
		setIsSubmitting(true);
		try {
			await resetPassword(token, password);
		} catch (error) {
			setIsSubmitting(false);
			if (error instanceof AuthActionError && error.code === "INVALID_TOKEN") {
				setIsExpired(true);
				return;
			}
			setErrorMessage(error instanceof Error ? error.message : null);
			return;
		}
		await onSignedIn();
		void showToast("success", accountResetDone());
		await navigate(APP_PATHS.generator, { replace: true });
	}

	return (
		<FormCard title={accountResetTitle()} description={accountResetDescription()}>
			<form onSubmit={submit} className="space-y-4">
				<NewPasswordFields
					kind="replacement"
					password={password}
					confirmation={confirmation}
					onPasswordChange={setPassword}
					onConfirmationChange={setConfirmation}
				/>
				<AlertMessage message={errorMessage} />
				<Button type="submit" size="lg" isFullWidth isBusy={isSubmitting}>
					{accountResetSubmit()}
				</Button>
			</form>
		</FormCard>
	);
}
