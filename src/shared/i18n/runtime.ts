// The message functions' one runtime (docs/decisions/037-languages.md): the English text of each
// message is inside its function (messages.ts, generated from messages/en.json), so a screen
// carries only the texts it shows; another language's catalogue is registered once loaded (the
// browser loads it on demand, the server at start) and read by key, English filling any gap.
import { DEFAULT_LANGUAGE, INTL_LOCALES, type Language } from "./languages";

/** A message's text, or its plural forms by `Intl.PluralRules` category ("other" always). */
export type MessageText = string | { readonly [category: string]: string };
export type Catalogue = Readonly<Record<string, MessageText>>;
export type MessageParams = Readonly<Record<string, string | number>>;
export type MessageOptions = { language?: Language };

const catalogues = new Map<Language, Catalogue>();
let activeLanguage: Language = DEFAULT_LANGUAGE;
const pluralRules = new Map<Language, Intl.PluralRules>();
const numberFormats = new Map<Language, Intl.NumberFormat>();

/** Makes a language's messages available (English needs none: its texts are in the functions). */
export function registerCatalogue(language: Language, catalogue: Catalogue): void {
	catalogues.set(language, catalogue);
}

/** The language messages are written in when a call names none: the page's, in the browser. */
export function setActiveLanguage(language: Language): void {
	activeLanguage = language;
}

export function readActiveLanguage(): Language {
	return activeLanguage;
}

function pluralCategory(language: Language, count: number): string {
	let rules = pluralRules.get(language);
	if (!rules) {
		rules = new Intl.PluralRules(INTL_LOCALES[language]);
		pluralRules.set(language, rules);
	}
	return rules.select(count);
}

function formatNumber(language: Language, value: number): string {
	let format = numberFormats.get(language);
	if (!format) {
		format = new Intl.NumberFormat(INTL_LOCALES[language]);
		numberFormats.set(language, format);
	}
	return format.format(value);
}

/**
 * A message in `language` (else the active one), English where that catalogue lacks it; a plural
 * chosen by the `count` parameter; `{name}` replaced by its parameter, numbers in the language's form.
 */
export function translate(
	key: string,
	english: MessageText,
	params?: MessageParams,
	options?: MessageOptions,
): string {
	const language = options?.language ?? activeLanguage;
	const found = language === DEFAULT_LANGUAGE ? undefined : catalogues.get(language)?.[key];
	const textLanguage = found === undefined ? DEFAULT_LANGUAGE : language;
	const message = found ?? english;
	let text: string;
	if (typeof message === "string") text = message;
	else {
		const count = Number(params?.count ?? 0);
		text = message[pluralCategory(textLanguage, count)] ?? message.other ?? "";
	}
	if (!params) return text;
	return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
		const value = params[name];
		if (value === undefined) return whole;
		return typeof value === "number" ? formatNumber(textLanguage, value) : value;
	});
}
