import { type FormEvent, useState } from "react";
import { checkNewPassword } from "../../../shared/passwords";
import { AlertMessage } from "../../components/alert-message";
import { Button } from "../../components/button";
import { NewPasswordFields } from "../../components/new-password-fields";
import { PasswordField } from "../../components/password-field";
import { changePassword } from "../../lib/account-requests";

type ChangePasswordFormProps = {
	/** Called after the change: other devices were signed out, so their list changed. */
	onChanged: () => void;
};

/** Current password, then the new one twice, with the sign-up rules. */
export function ChangePasswordForm({ onChanged }: ChangePasswordFormProps) {
	const [currentPassword, setCurrentPassword] = useState("");
	const [password, setPassword] = useState("");
	const [confirmation, setConfirmation] = useState("");
	const [isSubmitting, setIsSubmitting] = useState(false);
	const [errorMessage, setErrorMessage] = useState<string | null>(null);
	const [isChanged, setIsChanged] = useState(false);

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		setIsChanged(false);
		const problem = currentPassword
			? checkNewPassword(password, confirmation)
			: "Enter your current password.";
		setErrorMessage(problem);
		if (problem) return;
		setIsSubmitting(true);
		try {
			await changePassword(currentPassword, password);
			setCurrentPassword("");
			setPassword("");
			setConfirmation("");
			setIsChanged(true);
			onChanged();
		} catch (error) {
			setErrorMessage(error instanceof Error ? error.message : null);
		} finally {
			setIsSubmitting(false);
		}
	}

	return (
		<form onSubmit={submit} className="max-w-md space-y-4">
			<PasswordField
				label="Current password"
				name="currentPassword"
				autoComplete="current-password"
				required
				value={currentPassword}
				onChange={(event) => setCurrentPassword(event.target.value)}
			/>
			<NewPasswordFields
				kind="replacement"
				hintNote="Other devices will be signed out, and every API token and webhook of this account will end."
				password={password}
				confirmation={confirmation}
				onPasswordChange={setPassword}
				onConfirmationChange={setConfirmation}
			/>
			<AlertMessage message={errorMessage} />
			<div role="status" className="text-sm text-emerald-800">
				{isChanged
					? "Your password is changed. Other devices were signed out, and earlier API tokens and webhooks ended."
					: null}
			</div>
			<Button type="submit" isBusy={isSubmitting}>
				Change password
			</Button>
		</form>
	);
}
