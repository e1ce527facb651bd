// The server's side of languages (docs/decisions/037-languages.md): every catalogue, registered when
// this module loads (memory only: the server answers in every language), and the language a request
// asks for, which error messages, e-mails and pages are written in.
import { LANGUAGE_COOKIE, type Language } from "../../shared/i18n/languages";
import { pickLanguage } from "../../shared/i18n/negotiate-language";
import { registerCatalogue } from "../../shared/i18n/runtime";
import de from "../../shared/i18n/translations/de";

registerCatalogue("de", de);

const LANGUAGE_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`);

/** The language this browser chose in the user menu (kept in step with the account's), if any. */
export function readLanguageCookie(headers: Headers): string | undefined {
	return LANGUAGE_COOKIE_PATTERN.exec(headers.get("cookie") ?? "")?.[1]?.trim();
}

/**
 * The language of a request whose account is not read: this browser's choice, else its
 * Accept-Language, else English. A signed-in browser's cookie follows the account's setting.
 */
export function readRequestLanguage(
	headers: Headers | undefined,
	setting?: Language | "browser",
): Language {
	return pickLanguage({
		setting,
		cookie: headers ? readLanguageCookie(headers) : undefined,
		acceptLanguage: headers?.get("accept-language"),
	});
}
