import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Check } from "lucide-react";
import type { LanguageChoice } from "../../../shared/account-settings";
import {
	languageBrowser,
	languageEnglish,
	languageGerman,
	languageMenuLabel,
} from "../../../shared/i18n/messages";

const LANGUAGE_ITEMS: { choice: LanguageChoice; label: () => string; lang?: string }[] = [
	{ choice: "browser", label: languageBrowser },
	{ choice: "en", label: languageEnglish, lang: "en" },
	{ choice: "de", label: languageGerman, lang: "de" },
];

/** The browser's language, English or Deutsch: saved to the account, the page written in it. */
export function LanguageChoices({
	choice,
	onChoose,
}: {
	choice: LanguageChoice;
	onChoose: (choice: LanguageChoice) => void;
}) {
	return (
		<DropdownMenu.Group>
			<DropdownMenu.Label className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-600">
				{languageMenuLabel()}
			</DropdownMenu.Label>
			<DropdownMenu.RadioGroup
				value={choice}
				onValueChange={(value) => {
					const item = LANGUAGE_ITEMS.find((candidate) => candidate.choice === value);
					if (item) onChoose(item.choice);
				}}
			>
				{LANGUAGE_ITEMS.map(({ choice: itemChoice, label, lang }) => (
					<DropdownMenu.RadioItem
						key={itemChoice}
						value={itemChoice}
						lang={lang}
						className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
					>
						{label()}
						<DropdownMenu.ItemIndicator className="ml-auto">
							<Check aria-hidden="true" className="size-4 text-accent-600" />
						</DropdownMenu.ItemIndicator>
					</DropdownMenu.RadioItem>
				))}
			</DropdownMenu.RadioGroup>
		</DropdownMenu.Group>
	);
}
