// The page's language in the browser (docs/decisions/037-languages.md): the server wrote the page
// in it and said it in `<html lang>`; its messages load before the app renders, so the hydration
// finds the text the prerender wrote. English needs nothing: its texts are in the message functions.
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import { type Catalogue, registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";

/** Each language's catalogue, on demand: an English page never fetches another's. */
const CATALOGUES: Record<Exclude<Language, "en">, () => Promise<{ default: Catalogue }>> = {
	de: () => import("../../../shared/i18n/translations/de"),
};

/** The language the server wrote this page in. */
export function readPageLanguage(): Language {
	const language = document.documentElement.lang;
	return isLanguage(language) ? language : "en";
}

/** Loads the page's messages and makes its language the one the app writes in. */
export async function startInPageLanguage(): Promise<void> {
	const language = readPageLanguage();
	if (language !== "en") {
		try {
			const catalogue = await CATALOGUES[language]();
			registerCatalogue(language, catalogue.default);
		} catch {
			// Not loaded (a network failure): the page's texts stay, the app's are English.
		}
	}
	setActiveLanguage(language);
}
