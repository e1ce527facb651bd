import { MIN_PASSWORD_LENGTH } from "../core/constants";
import { passwordsDoNotMatch, passwordTooShort } from "../i18n/messages";

/** The length rule's message in English (the server's PASSWORD_TOO_SHORT, read in the web). */
export const PASSWORD_TOO_SHORT_MESSAGE = passwordTooShort({ count: MIN_PASSWORD_LENGTH });

/**
 * The rules for a new password, at sign-up, reset and change alike (SPEC.md section 5): the two
 * entries match and it has at least six characters. The message of the first rule broken, or null.
 */
export function checkNewPassword(password: string, confirmation: string): string | null {
	if (password !== confirmation) return passwordsDoNotMatch();
	if (password.length < MIN_PASSWORD_LENGTH)
		return passwordTooShort({ count: MIN_PASSWORD_LENGTH });
	return null;
}
