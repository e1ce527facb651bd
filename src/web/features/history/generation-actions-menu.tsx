import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import {
	Copy,
	EllipsisVertical,
	FileArchive,
	Repeat2,
	SlidersHorizontal,
	SquarePen,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Generation } from "../../../shared/generation-responses";
import { buildArchiveUrl } from "../../lib/generations-requests";
import { buildUsePromptLink, buildUseSettingsLink } from "./generation-reuse";

export type ReuseActions = {
	onRerun: (generation: Generation) => void;
	/** A Use prompt or Use settings link was followed: the page says so when the model is gone. */
	onReuse: (generation: Generation) => void;
	onCopyPrompt: (generation: Generation) => void;
};

const ITEM_CLASS_NAME =
	"flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

function MenuItem({
	icon,
	children,
	onSelect,
}: {
	icon: ReactNode;
	children: ReactNode;
	onSelect: () => void;
}) {
	return (
		<DropdownMenu.Item onSelect={onSelect} className={ITEM_CLASS_NAME}>
			{icon}
			{children}
		</DropdownMenu.Item>
	);
}

/** True when the generation has images to download. */
export function hasImages(generation: Generation): boolean {
	return generation.status === "completed" && generation.images.length > 0;
}

/**
 * A card's further actions, behind one button so the card keeps its height: download the whole
 * generation as a ZIP, open the generator with its prompt and settings (with or without its seed),
 * run it again with a new seed, copy the prompt.
 */
export function GenerationActionsMenu({
	generation,
	actions,
}: {
	generation: Generation;
	actions: ReuseActions;
}) {
	return (
		<DropdownMenu.Root modal={false}>
			<DropdownMenu.Trigger
				aria-label="More actions"
				className="-mt-1 -mr-2 inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 data-[state=open]:bg-slate-100"
			>
				<EllipsisVertical aria-hidden="true" className="size-4" />
			</DropdownMenu.Trigger>
			{/* Portalled: the card's list item contains its paint (content-visibility), which would clip it. */}
			<DropdownMenu.Portal>
				<DropdownMenu.Content
					align="end"
					sideOffset={4}
					className="z-30 w-56 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 focus:outline-none"
				>
					{hasImages(generation) ? (
						<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
							<a href={buildArchiveUrl(generation.id)} download>
								<FileArchive aria-hidden="true" className="size-4" />
								Download all (ZIP)
							</a>
						</DropdownMenu.Item>
					) : null}
					<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
						<Link to={buildUsePromptLink(generation)} onClick={() => actions.onReuse(generation)}>
							<SquarePen aria-hidden="true" className="size-4" />
							Use prompt
						</Link>
					</DropdownMenu.Item>
					<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
						<Link to={buildUseSettingsLink(generation)} onClick={() => actions.onReuse(generation)}>
							<SlidersHorizontal aria-hidden="true" className="size-4" />
							Use settings
						</Link>
					</DropdownMenu.Item>
					<MenuItem
						icon={<Repeat2 aria-hidden="true" className="size-4" />}
						onSelect={() => actions.onRerun(generation)}
					>
						Rerun
					</MenuItem>
					<MenuItem
						icon={<Copy aria-hidden="true" className="size-4" />}
						onSelect={() => actions.onCopyPrompt(generation)}
					>
						Copy prompt
					</MenuItem>
				</DropdownMenu.Content>
			</DropdownMenu.Portal>
		</DropdownMenu.Root>
	);
}
