// The message functions' one runtime (docs/decisions/037-languages.md): the English text of each
// message is inside its function (messages.ts, generated from messages/en.json), so a screen
// carries only the texts it shows; another language's catalogue is registered once loaded (the
// browser loads it on demand, the server at start) and read by the message's English text (its
// id), English filling any gap.
import { DEFAULT_LANGUAGE, INTL_LOCALES, type Language } from "./languages";

/** A message's text, or its plural forms by `Intl.PluralRules` category ("other" always). */
export type MessageText = string | { readonly [category: string]: string };
export type Catalogue = Readonly<Record<string, MessageText>>;
export type MessageParams = Readonly<Record<string, string | number>>;
export type MessageOptions = { language?: Language };

const catalogues = new Map<Language, Catalogue>();
let activeLanguage: Language = DEFAULT_LANGUAGE;

/**
 * Makes a language's messages available, keyed by their ids (translations/, compiled from its
 * JSON). English needs none: its texts are in the functions.
 */
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

/**
 * The id a catalogue finds a message by: its English text (a plural's "other" form), unless the
 * compiler gave it one of its own (messages that read alike in English but not in every language).
 */
function idOf(english: MessageText): string {
	return typeof english === "string" ? english : (english.other ?? "");
}

/**
 * A message without parameters, as a generated function makes it: its English text is all a bundle
 * carries of it, most often (decision 037 says what a message costs the first page).
 */
export function message(english: MessageText, id?: string): (options?: MessageOptions) => string {
	return (options) => translate(english, undefined, options, id);
}

/** A message with `{parameters}` (a plural's `count` among them), as a generated function makes it. */
export function messageWithParams<Params extends MessageParams>(
	english: MessageText,
	id?: string,
): (params: Params, options?: MessageOptions) => string {
	return (params, options) => translate(english, params, options, id);
}

/**
 * A message in `language` (else the active one), English where that catalogue lacks it; a plural
 * chosen by the `count` parameter; `{name}` replaced by its parameter, numbers in the language's form.
 * (Short, and without caches of Intl objects: the first page carries it, and plurals are few.)
 */
export function translate(
	english: MessageText,
	params?: MessageParams,
	options?: MessageOptions,
	id: string = idOf(english),
): string {
	const language = options?.language ?? activeLanguage;
	const found = catalogues.get(language)?.[id];
	const locale = INTL_LOCALES[found === undefined ? DEFAULT_LANGUAGE : language];
	const chosen = found ?? english;
	const text =
		typeof chosen === "string"
			? chosen
			: (chosen[new Intl.PluralRules(locale).select(Number(params?.count))] ?? chosen.other);
	if (!params) return text ?? "";
	return (text ?? "").replace(/\{(\w+)\}/g, (whole, name: string) => {
		const value = params[name];
		if (value === undefined) return whole;
		return typeof value === "number" ? formatNumber(value, locale) : value;
	});
}

/**
 * A number in the locale's form. A whole number from 0 to 999 reads the same in every language
 * Atelier has and is written without Intl: the first number a page formats through Intl loads the
 * locale's number data, a task of some 60 ms on a mid-range phone, and the first screen shows only
 * such numbers (docs/decisions/040-the-first-screens-start.md).
 */
function formatNumber(value: number, locale: string): string {
	return Number.isInteger(value) && value >= 0 && value < 1000
		? String(value)
		: value.toLocaleString(locale);
}
