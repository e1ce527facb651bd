import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Check, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export type MenuChoice<T extends string> = {
	choice: T;
	label: ReactNode;
	icon?: LucideIcon;
	/** The language the item is written in, where it is not the page's (a language's own name). */
	lang?: string;
};

/** One labelled group of radio items in the user menu: the theme's, the language's. */
export function MenuChoices<T extends string>({
	label,
	items,
	choice,
	onChoose,
	isKeptOpen = false,
}: {
	label: ReactNode;
	items: readonly MenuChoice<T>[];
	choice: T;
	onChoose: (choice: T) => void;
	/** The menu stays open once one is chosen: the page changes behind it at once. */
	isKeptOpen?: boolean;
}) {
	return (
		<DropdownMenu.Group>
			<DropdownMenu.Label className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-600">
				{label}
			</DropdownMenu.Label>
			<DropdownMenu.RadioGroup
				value={choice}
				onValueChange={(value) => {
					const item = items.find((candidate) => candidate.choice === value);
					if (item) onChoose(item.choice);
				}}
			>
				{items.map(({ choice: itemChoice, label: itemLabel, icon: Icon, lang }) => (
					<DropdownMenu.RadioItem
						key={itemChoice}
						value={itemChoice}
						lang={lang}
						onSelect={isKeptOpen ? (event) => event.preventDefault() : undefined}
						className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900"
					>
						{Icon ? <Icon aria-hidden="true" className="size-4" /> : null}
						{itemLabel}
						<DropdownMenu.ItemIndicator className="ml-auto">
							<Check aria-hidden="true" className="size-4 text-accent-600" />
						</DropdownMenu.ItemIndicator>
					</DropdownMenu.RadioItem>
				))}
			</DropdownMenu.RadioGroup>
		</DropdownMenu.Group>
	);
}
