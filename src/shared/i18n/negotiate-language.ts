// Which language a person reads (docs/decisions/037-languages.md): the account's setting, else the
// browser's chosen one, else its Accept-Language, else English. Apart from languages.ts, so the
// first page, which only reads the language its page was written in, does not carry it.
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "./languages";

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
