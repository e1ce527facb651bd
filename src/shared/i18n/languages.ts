// The languages Atelier speaks (docs/decisions/037-languages.md); which one a person reads is
// negotiate-language.ts's. Plain constants: the first page carries this module.

export const LANGUAGES = ["en", "de"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

/** The locale `Intl` formats with in each language; English keeps SPEC.md's en-US dates. */
export const INTL_LOCALES: Record<Language, string> = { en: "en-US", de: "de-DE" };

/**
 * The cookie the browser keeps the chosen language in, so the server answers the prerendered pages
 * in it before anyone is signed in (set by the user menu's Language choice, from the account's).
 */
export const LANGUAGE_COOKIE = "atelier-language";

export function isLanguage(value: unknown): value is Language {
	return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}
