import { type FormEvent, useState } from "react";
import { checkNewPassword } from "../../../shared/account/passwords";
import {
	accountPasswordChange,
	accountPasswordChanged,
	accountPasswordChangedOthersSignedOut,
	accountPasswordCurrent,
	accountPasswordCurrentMissing,
	accountPasswordSignOutOthers,
	accountPasswordSignOutOthersHint,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { NewPasswordFields } from "../../components/forms/new-password-fields";
import { PasswordField } from "../../components/forms/password-field";
import { changePassword } from "../../lib/account/account-requests";

type ChangePasswordFormProps = {
	/** Called after the change: other devices may have been signed out, so their list changed. */
	onChanged: () => void;
};

/**
 * Current password, then the new one twice, with the sign-up rules, and whether to take the account
 * back as a reset does (on by default: a password is most often changed because it leaked).
 */
export function ChangePasswordForm({ onChanged }: ChangePasswordFormProps) {
	const [currentPassword, setCurrentPassword] = useState("");
	const [password, setPassword] = useState("");
	const [confirmation, setConfirmation] = useState("");
	const [isSubmitting, setIsSubmitting] = useState(false);
	const [errorMessage, setErrorMessage] = useState<string | null>(null);
	const [isSigningOutOthers, setIsSigningOutOthers] = useState(true);
	const [changedWith, setChangedWith] = useState<"others-signed-out" | "others-kept" | null>(null);

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		setChangedWith(null);
		const problem = currentPassword
			? checkNewPassword(password, confirmation)
			: accountPasswordCurrentMissing();
		setErrorMessage(problem);
		if (problem) return;
		setIsSubmitting(true);
		try {
			await changePassword(currentPassword, password, isSigningOutOthers);
			setCurrentPassword("");
			setPassword("");
			setConfirmation("");
			setChangedWith(isSigningOutOthers ? "others-signed-out" : "others-kept");
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
				label={accountPasswordCurrent()}
				name="currentPassword"
				autoComplete="current-password"
				required
				value={currentPassword}
				onChange={(event) => setCurrentPassword(event.target.value)}
			/>
			<NewPasswordFields
				kind="replacement"
				password={password}
				confirmation={confirmation}
				onPasswordChange={setPassword}
				onConfirmationChange={setConfirmation}
			/>
			<label className="flex items-start gap-2 text-sm text-slate-800">
				<input
					type="checkbox"
					name="signOutOtherDevices"
					className="mt-0.5 size-4 accent-accent-600"
					checked={isSigningOutOthers}
					onChange={(event) => setIsSigningOutOthers(event.target.checked)}
				/>
				<span>
					<span className="font-medium">{accountPasswordSignOutOthers()}</span>
					<span className="block text-slate-600">{accountPasswordSignOutOthersHint()}</span>
				</span>
			</label>
			<AlertMessage message={errorMessage} />
			<div role="status" className="text-sm text-emerald-800">
				{changedWith === "others-signed-out"
					? accountPasswordChangedOthersSignedOut()
					: changedWith === "others-kept"
						? accountPasswordChanged()
						: null}
			</div>
			<Button type="submit" isBusy={isSubmitting}>
				{accountPasswordChange()}
			</Button>
		</form>
	);
}
