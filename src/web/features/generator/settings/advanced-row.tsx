// The settings' row under Model and Images: the Advanced settings button, the person's recent
// prompts (recent-prompts-menu.tsx) and Load settings from image (load-settings-from-image.tsx);
// and the Advanced settings it opens: Style (style-field.tsx), Seed, Negative prompt and Quality
// (advanced-settings.tsx), and Add new results to… (add-to-boards-field.tsx).
import { ChevronRight } from "lucide-react";
import type { RefObject } from "react";
import { generatorAdvancedSettings } from "../../../../shared/i18n/messages";
import { joinClassNames } from "../../../lib/ui/class-names";
import { AddToBoardsField } from "./add-to-boards-field";
import { AdvancedSettings } from "./advanced-settings";
import type { SettingsChoice } from "./generation-choice";
import { LoadSettingsFromImage } from "./load-settings-from-image";
import { RecentPromptsMenu } from "./recent-prompts-menu";
import type { SettingsField } from "./settings-field";
import { SETTINGS_BAR_CLASS_NAME, SETTINGS_BAR_ITEM_CLASS_NAME } from "./settings-frame";
import { StyleField } from "./style-field";

type AdvancedRowProps = {
	isSignedIn: boolean;
	/** Whether the model (or the person signed in, for Style) has advanced settings at all. */
	hasAdvanced: boolean;
	isAdvancedOpen: boolean;
	onAdvancedOpenChange: (isOpen: boolean) => void;
	/** The id of the Advanced settings' panel, which the button controls. */
	advancedId: string;
	promptRef: RefObject<HTMLTextAreaElement | null>;
	onPromptChange: (prompt: string) => void;
	onImageChosen: (file: File) => void;
};

/** The Advanced settings button, the recent prompts and Load settings from image, on one line. */
export function AdvancedRow({
	isSignedIn,
	hasAdvanced,
	isAdvancedOpen,
	onAdvancedOpenChange,
	advancedId,
	promptRef,
	onPromptChange,
	onImageChosen,
}: AdvancedRowProps) {
	return (
		<div className={SETTINGS_BAR_CLASS_NAME}>
			<div className={SETTINGS_BAR_ITEM_CLASS_NAME}>
				{hasAdvanced ? (
					<button
						type="button"
						aria-expanded={isAdvancedOpen}
						aria-controls={advancedId}
						onClick={() => onAdvancedOpenChange(!isAdvancedOpen)}
						className="-ml-1.5 inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
					>
						<ChevronRight
							aria-hidden="true"
							className={joinClassNames(
								"size-4 text-slate-500 transition-transform",
								isAdvancedOpen && "rotate-90",
							)}
						/>
						{generatorAdvancedSettings()}
					</button>
				) : null}
			</div>
			<div className={joinClassNames(SETTINGS_BAR_ITEM_CLASS_NAME, "gap-2")}>
				{isSignedIn ? (
					<RecentPromptsMenu
						onUse={(recalled) => {
							onPromptChange(recalled);
							promptRef.current?.focus();
						}}
					/>
				) : null}
				<LoadSettingsFromImage onImageChosen={onImageChosen} />
			</div>
		</div>
	);
}

type AdvancedPanelProps = {
	id: string;
	isOpen: boolean;
	isSignedIn: boolean;
	choice: SettingsChoice;
	onChoiceChange: (choice: SettingsChoice) => void;
	/** Style's choice, kept stable for the picker (it drops a style the person no longer has). */
	onStyleChange: (styleId: string | null) => void;
	/** The prompt box's text, which "Save as style" keeps. */
	prompt: string;
	fieldMessage: (field: SettingsField) => string | null;
	boardIds: readonly string[];
	onBoardIdsChange: (ids: readonly string[]) => void;
};

/** The Advanced settings, rendered while open (hidden otherwise, so the button controls it). */
export function AdvancedPanel({
	id,
	isOpen,
	isSignedIn,
	choice,
	onChoiceChange,
	onStyleChange,
	prompt,
	fieldMessage,
	boardIds,
	onBoardIdsChange,
}: AdvancedPanelProps) {
	const { model } = choice;
	return (
		<div
			id={id}
			hidden={!isOpen}
			className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
		>
			{isOpen ? (
				<>
					<StyleField
						isSignedIn={isSignedIn}
						styleId={choice.styleId ?? null}
						onChange={onStyleChange}
						prompt={prompt}
						negativePrompt={model.negativePrompt ? choice.negativePrompt : ""}
						message={fieldMessage("style")}
					/>
					<AdvancedSettings
						choice={choice}
						onChange={(update) => onChoiceChange({ ...choice, ...update })}
						fieldMessage={fieldMessage}
					/>
				</>
			) : null}
			{isOpen && isSignedIn ? (
				<AddToBoardsField boardIds={boardIds} onChange={onBoardIdsChange} />
			) : null}
		</div>
	);
}
