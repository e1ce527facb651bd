// The languages Atelier speaks, and which one a person reads (docs/decisions/037-languages.md): the
// account's setting, else the browser's Accept-Language, else English. Plain code: the first page,
// the prerender and the server all read it.

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

/**
 * The best of our languages for an `Accept-Language` header: its ranges by quality, highest first,
 * a range's primary subtag matching ("de-AT" reads German); English when none matches.
 */
export function negotiateLanguage(acceptLanguage: string | undefined | null): Language {
	if (!acceptLanguage) return DEFAULT_LANGUAGE;
	const ranges = acceptLanguage
		.split(",")
		.map((part, index) => {
			const [tag = "", ...parameters] = part.trim().split(";");
			const qualityText = parameters
				.map((parameter) => parameter.trim())
				.find((parameter) => parameter.startsWith("q="));
			const quality = qualityText === undefined ? 1 : Number(qualityText.slice(2));
			return {
				tag: tag.trim().toLowerCase(),
				quality: Number.isFinite(quality) ? quality : 0,
				index,
			};
		})
		.filter((range) => range.tag !== "" && range.quality > 0)
		.sort((a, b) => b.quality - a.quality || a.index - b.index);
	for (const range of ranges) {
		const primary = range.tag.split("-")[0];
		if (isLanguage(primary)) return primary;
	}
	return DEFAULT_LANGUAGE;
}

/** The account's choice when it made one ("browser" is none), else what the browser asks for. */
export function pickLanguage(input: {
	setting?: Language | "browser" | undefined;
	cookie?: string | undefined;
	acceptLanguage?: string | undefined | null;
}): Language {
	if (isLanguage(input.setting)) return input.setting;
	if (isLanguage(input.cookie)) return input.cookie;
	return negotiateLanguage(input.acceptLanguage);
}
