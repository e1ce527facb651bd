import { MIN_PASSWORD_LENGTH } from "./constants";

const PASSWORDS_DO_NOT_MATCH_MESSAGE = "Passwords do not match";
export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/**
 * The rules for a new password, at sign-up, reset and change alike (SPEC.md section 5): the two
 * entries match and it has at least six characters. The message of the first rule broken, or null.
 */
export function checkNewPassword(password: string, confirmation: string): string | null {
	if (password !== confirmation) return PASSWORDS_DO_NOT_MATCH_MESSAGE;
	if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE;
	return null;
}
