// The server's side of languages (docs/decisions/037-languages.md): every catalogue, registered when
// this module loads (memory only: the server answers in every language), and the language a request
// asks for, which error messages, e-mails and pages are written in.
import type { LanguageChoice } from "../../shared/account/account-settings";
import { INTL_LOCALES, LANGUAGE_COOKIE, type Language } from "../../shared/i18n/languages";
import { pickLanguage } from "../../shared/i18n/negotiate-language";
import {
	readActiveLanguage,
	registerCatalogue,
	setActiveLanguage,
} from "../../shared/i18n/runtime";
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

/** How long a browser keeps its chosen language, as the user menu writes it (lib/account/language-choice.ts). */
const LANGUAGE_COOKIE_SECONDS = 60 * 60 * 24 * 365;

/**
 * The language cookie a browser signing in is given, so its very first page is written in the
 * account's language (the server never reads the session for a page, decision 012): the account's
 * choice, or the browser's own choice forgotten when the account follows the browser's language.
 * Undefined when the cookie is right already. Not HttpOnly: the user menu writes it too.
 */
export function languageCookieForAccount(
	setting: LanguageChoice,
	headers: Headers | undefined,
): { name: string; value: string; maxAge: number } | undefined {
	const kept = headers ? readLanguageCookie(headers) : undefined;
	if (setting === "browser") {
		return kept === undefined ? undefined : { name: LANGUAGE_COOKIE, value: "", maxAge: 0 };
	}
	if (kept === setting) return undefined;
	return { name: LANGUAGE_COOKIE, value: setting, maxAge: LANGUAGE_COOKIE_SECONDS };
}

/**
 * What `write` answers with `language` as the messages' language: for texts made where no language
 * is passed (a schema's messages, made while it parses). Synchronous only, so no other request's
 * work runs meanwhile; the server's language is English again afterwards.
 */
export function writeInLanguage<T>(language: Language, write: () => T): T {
	const before = readActiveLanguage();
	setActiveLanguage(language);
	try {
		return write();
	} finally {
		setActiveLanguage(before);
	}
}

/** Alternatives as the language lists them: `"generate" or "read"`, `"generate" oder "read"`. */
export function formatAlternatives(items: string[], options: { language: Language }): string {
	return new Intl.ListFormat(INTL_LOCALES[options.language], { type: "disjunction" }).format(items);
}
