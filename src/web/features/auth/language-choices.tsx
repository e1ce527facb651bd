import type { LanguageChoice } from "../../../shared/account/account-settings";
import {
	languageBrowser,
	languageEnglish,
	languageGerman,
	languageMenuLabel,
} from "../../../shared/i18n/messages";
import { type MenuChoice, MenuChoices } from "./menu-choices";

/** The browser's language, English or Deutsch: saved to the account, the page written in it. */
export function LanguageChoices({
	choice,
	onChoose,
}: {
	choice: LanguageChoice;
	onChoose: (choice: LanguageChoice) => void;
}) {
	const items: MenuChoice<LanguageChoice>[] = [
		{ choice: "browser", label: languageBrowser() },
		{ choice: "en", label: languageEnglish(), lang: "en" },
		{ choice: "de", label: languageGerman(), lang: "de" },
	];
	return (
		<MenuChoices label={languageMenuLabel()} items={items} choice={choice} onChoose={onChoose} />
	);
}
