import { MIN_PASSWORD_LENGTH } from "../../../shared/core/constants";
import {
	fieldConfirmNewPassword,
	fieldConfirmPassword,
	fieldNewPassword,
	fieldPassword,
	passwordHint,
} from "../../../shared/i18n/messages";
import { PasswordField } from "./password-field";

// The names the fields post under: the sign-up form posts itself before the script has run
// (use-typed-before-hydration.ts), so they are part of the page.
const FIELDS = {
	signup: {
		label: fieldPassword,
		confirmationLabel: fieldConfirmPassword,
		name: "password",
		confirmationName: "confirmPassword",
	},
	replacement: {
		label: fieldNewPassword,
		confirmationLabel: fieldConfirmNewPassword,
		name: "newPassword",
		confirmationName: "confirmNewPassword",
	},
} as const;

type NewPasswordFieldsProps = {
	/** `signup` for the first password, `replacement` for a reset or a change. */
	kind: keyof typeof FIELDS;
	/** Said after the length rule in the hint under the first field. */
	hintNote?: string;
	password: string;
	confirmation: string;
	onPasswordChange: (value: string) => void;
	onConfirmationChange: (value: string) => void;
};

/**
 * A new password typed twice, at sign-up, reset and change alike; the form checks them with
 * checkNewPassword (shared/account/passwords.ts), whose length rule the hint states.
 */
export function NewPasswordFields({
	kind,
	hintNote,
	password,
	confirmation,
	onPasswordChange,
	onConfirmationChange,
}: NewPasswordFieldsProps) {
	const fields = FIELDS[kind];
	const hint = passwordHint({ count: MIN_PASSWORD_LENGTH });
	return (
		<>
			<PasswordField
				label={fields.label()}
				name={fields.name}
				autoComplete="new-password"
				hint={hintNote ? `${hint} ${hintNote}` : hint}
				required
				value={password}
				onChange={(event) => onPasswordChange(event.target.value)}
			/>
			<PasswordField
				label={fields.confirmationLabel()}
				name={fields.confirmationName}
				autoComplete="new-password"
				required
				value={confirmation}
				onChange={(event) => onConfirmationChange(event.target.value)}
			/>
		</>
	);
}
