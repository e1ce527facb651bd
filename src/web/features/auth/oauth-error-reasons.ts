import { ERRORS } from "../../../shared/errors";

// The reasons the login screen gives after a failed Google sign-in. Only that screen needs them,
// so they load with it rather than with the first page.

const OAUTH_ERROR_REASONS: Record<string, string> = {
	access_denied: "Access was denied or the sign-in was cancelled.",
	signup_disabled: "New accounts cannot be created with Google on this server.",
	email_not_found: "Google did not share an e-mail address for this account.",
	email_not_verified: "This Google account's e-mail address is not verified.",
	email_does_not_match: "The Google account's e-mail does not match this account.",
	account_already_linked_to_different_user: "This Google account is linked to another user.",
	unable_to_link_account: "This Google account could not be linked.",
	unable_to_get_user_info: "Google did not return the account details.",
	state_mismatch: "The sign-in session expired. Please try again.",
	state_not_found: "The sign-in session expired. Please try again.",
	please_restart_the_process: "The sign-in session expired. Please try again.",
	invalid_code: "Google returned an invalid sign-in code. Please try again.",
	no_code: "Google did not return a sign-in code. Please try again.",
	oauth_provider_not_found: ERRORS.GOOGLE_NOT_CONFIGURED.message,
	internal_server_error: ERRORS.UNKNOWN_ERROR.message,
};

const SAFE_ERROR_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The reason to show for the `error` code the server puts on /login after a failed Google
 * sign-in. The code arrives in the URL, so anyone can craft it: only known codes and plain
 * identifiers are turned into text, never free-form input.
 */
export function describeOAuthError(code: string): string {
	const known = OAUTH_ERROR_REASONS[code.toLowerCase()];
	if (known) return known;
	const catalogue: Readonly<Record<string, { message: string }>> = ERRORS;
	if (Object.hasOwn(catalogue, code)) return catalogue[code]?.message ?? "Please try again.";
	if (!SAFE_ERROR_CODE.test(code)) return "Please try again.";
	const words = code.replace(/[_-]+/g, " ").trim().toLowerCase();
	return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}
