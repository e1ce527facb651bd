import { ERRORS, type ErrorCode, errorMessage } from "../../../shared/core/errors";
import {
	authOauthAccessDenied,
	authOauthEmailMismatch,
	authOauthEmailNotFound,
	authOauthEmailNotVerified,
	authOauthInvalidCode,
	authOauthLinkedElsewhere,
	authOauthNoCode,
	authOauthNoUserInfo,
	authOauthSessionExpired,
	authOauthSignupDisabled,
	authOauthTryAgain,
	authOauthUnableToLink,
	errorGoogleNotConfigured,
	errorUnknownError,
} from "../../../shared/i18n/messages";

// The reasons the login screen gives after a failed Google sign-in. Only that screen needs them,
// so they load with it rather than with the first page.

const OAUTH_ERROR_REASONS: Record<string, () => string> = {
	access_denied: authOauthAccessDenied,
	signup_disabled: authOauthSignupDisabled,
	email_not_found: authOauthEmailNotFound,
	email_not_verified: authOauthEmailNotVerified,
	email_does_not_match: authOauthEmailMismatch,
	account_already_linked_to_different_user: authOauthLinkedElsewhere,
	unable_to_link_account: authOauthUnableToLink,
	unable_to_get_user_info: authOauthNoUserInfo,
	state_mismatch: authOauthSessionExpired,
	state_not_found: authOauthSessionExpired,
	please_restart_the_process: authOauthSessionExpired,
	invalid_code: authOauthInvalidCode,
	no_code: authOauthNoCode,
	oauth_provider_not_found: errorGoogleNotConfigured,
	internal_server_error: errorUnknownError,
};

const SAFE_ERROR_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The reason to show for the `error` code the server puts on /login after a failed Google
 * sign-in. The code arrives in the URL, so anyone can craft it: only known codes and plain
 * identifiers are turned into text, never free-form input.
 */
export function describeOAuthError(code: string): string {
	const known = OAUTH_ERROR_REASONS[code.toLowerCase()];
	if (known) return known();
	if (Object.hasOwn(ERRORS, code)) return errorMessage(code as ErrorCode);
	if (!SAFE_ERROR_CODE.test(code)) return authOauthTryAgain();
	const words = code.replace(/[_-]+/g, " ").trim().toLowerCase();
	return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}
