// Better Auth's own refusals (a wrong password, an address already taken, too many requests) in
// the asking browser's language (docs/decisions/037-languages.md): its answers keep their shape,
// `{ code, message }`, and their English text; the message is the catalogue's in the request's.
import { ERRORS, errorMessage } from "../../shared/core/errors";
import type { Language } from "../../shared/i18n/languages";
import {
	authRefusedCredentialAccountNotFound,
	authRefusedEmailAlreadyVerified,
	authRefusedEmailNotVerified,
	authRefusedInvalidEmail,
	authRefusedInvalidEmailOrPassword,
	authRefusedInvalidPassword,
	authRefusedInvalidToken,
	authRefusedPasswordTooLong,
	authRefusedPasswordTooShort,
	authRefusedSessionExpired,
	authRefusedTokenExpired,
	authRefusedUserExists,
	authRefusedUserExistsUseAnotherEmail,
	authRefusedUserNotFound,
} from "../../shared/i18n/messages";
import type { MessageOptions } from "../../shared/i18n/runtime";
import { readRequestLanguage } from "../i18n/request-language";

type Message = (options?: MessageOptions) => string;

/** Better Auth's error codes a person can meet, each with its catalogue message. */
const AUTH_MESSAGES: Readonly<Record<string, Message>> = {
	INVALID_EMAIL_OR_PASSWORD: authRefusedInvalidEmailOrPassword,
	INVALID_PASSWORD: authRefusedInvalidPassword,
	INVALID_EMAIL: authRefusedInvalidEmail,
	USER_ALREADY_EXISTS: authRefusedUserExists,
	USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: authRefusedUserExistsUseAnotherEmail,
	PASSWORD_TOO_SHORT: authRefusedPasswordTooShort,
	PASSWORD_TOO_LONG: authRefusedPasswordTooLong,
	INVALID_TOKEN: authRefusedInvalidToken,
	TOKEN_EXPIRED: authRefusedTokenExpired,
	EMAIL_NOT_VERIFIED: authRefusedEmailNotVerified,
	EMAIL_ALREADY_VERIFIED: authRefusedEmailAlreadyVerified,
	SESSION_EXPIRED: authRefusedSessionExpired,
	CREDENTIAL_ACCOUNT_NOT_FOUND: authRefusedCredentialAccountNotFound,
	USER_NOT_FOUND: authRefusedUserNotFound,
};

/**
 * The catalogue's text for a refusal of Better Auth's, or undefined for one it does not hold. A
 * body its schema refuses comes as VALIDATION_ERROR with zod's English ("[body.email] Invalid email
 * address"): an address that is not one is said as such, any other field as the catalogue's
 * VALIDATION_ERROR.
 */
function translateRefusal(
	status: number,
	code: unknown,
	message: unknown,
	language: Language,
): string | undefined {
	if (typeof code === "string") {
		if (code === "ACCOUNT_DISABLED") return errorMessage("ACCOUNT_DISABLED", { language });
		if (code === "VALIDATION_ERROR") {
			const isEmail = typeof message === "string" && message.startsWith("[body.email]");
			return isEmail
				? authRefusedInvalidEmail({ language })
				: errorMessage("VALIDATION_ERROR", { language });
		}
		return AUTH_MESSAGES[code]?.({ language });
	}
	// Better Auth's rate limiter answers with a message and no code; its text is the catalogue's.
	if (status === ERRORS.RATE_LIMITED.status) return errorMessage("RATE_LIMITED", { language });
	return undefined;
}

/**
 * Better Auth's answer with its refusal's message in the request's language; any other answer,
 * and a refusal the catalogue does not hold, as it came.
 */
export async function translateAuthAnswer(request: Request, answer: Response): Promise<Response> {
	if (answer.ok || !answer.headers.get("content-type")?.includes("application/json")) {
		return answer;
	}
	const body: unknown = await answer
		.clone()
		.json()
		.catch(() => undefined);
	if (typeof body !== "object" || body === null || Array.isArray(body)) return answer;
	const refusal = body as { code?: unknown; message?: unknown };
	const language = readRequestLanguage(request.headers);
	const message = translateRefusal(answer.status, refusal.code, refusal.message, language);
	if (message === undefined || message === refusal.message) return answer;
	const headers = new Headers(answer.headers);
	headers.delete("content-length");
	return new Response(JSON.stringify({ ...refusal, message }), {
		status: answer.status,
		statusText: answer.statusText,
		headers,
	});
}
