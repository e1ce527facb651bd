// The settings beside the prompt, in the order they show: Model and Images
// (model-and-count-row.tsx), Enhance (prompt-enhance.tsx), the Advanced settings and Load settings
// from image (advanced-row.tsx), the reference image, the batch and Notify me when done
// (reference-batch-notify-rows.tsx). Loaded on demand with the models (generation-code.ts); the
// first page holds a frame of the same height in their place (settings-frame.tsx). They show the
// form's state (use-generator-form.ts) and change it through its callbacks.
import { type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import { MODEL_NO_LONGER_OFFERED } from "../../../../shared/generations/generation-settings";
import { usePublicConfig } from "../../../lib/api/public-config";
import { useOfferedModels } from "../../../lib/generations/models-requests";
import { showToast } from "../../../lib/ui/toast";
import type { ReferenceImageControls } from "../reference/use-reference-image";
import { AdvancedPanel, AdvancedRow } from "../settings/advanced-row";
import type { BatchRequest } from "../settings/batch-choice";
import type { SettingsChoice, SettingsPrefill } from "../settings/generation-choice";
import { ModelAndCountRow } from "../settings/model-and-count-row";
import { applyPrefill, listTextModels } from "../settings/model-choice";
import { readFieldOfMessage, type SettingsField } from "../settings/settings-field";
import { hasEnhanceRow, SettingsPlaceholder } from "../settings/settings-frame";
import { PromptEnhance } from "./prompt-enhance";
import { usePromptRecall } from "./prompt-recall";
import { ReferenceBatchNotifyRows } from "./reference-batch-notify-rows";

type GenerationControlsProps = {
	isSignedIn: boolean;
	isAuthLoading: boolean;
	choice: SettingsChoice | null;
	onChoiceChange: (choice: SettingsChoice) => void;
	/** What a link or an image's recipe asks for, until fitted to the models and chosen. */
	askedSettings: SettingsPrefill | null;
	/** The message of a refused start: a setting it names is marked. */
	startError: string | null;
	onImageChosen: (file: File) => void;
	/** The form's reference image (sent only where the chosen model takes one). */
	reference: ReferenceImageControls;
	/** Add new results to…: the boards chosen. */
	boardIds: readonly string[];
	onBoardIdsChange: (ids: readonly string[]) => void;
	/** The prompt box's text, which "Save as style" keeps. */
	prompt: string;
	/** The prompt box, where Alt+Up and Alt+Down recall the person's last prompts. */
	promptRef: RefObject<HTMLTextAreaElement | null>;
	/** Puts a recalled prompt in the box. */
	onPromptChange: (prompt: string) => void;
	/** What Variations and Compare models ask of the next start (null: one generation). */
	onBatchRequestChange?: (request: BatchRequest | null) => void;
};

const ADVANCED_FIELDS: readonly SettingsField[] = ["seed", "negativePrompt", "quality", "style"];

/**
 * The settings for the next generation. Asks for the models and chooses, once they are known, what
 * a link or an image asked for, else the person's last model, else the default; the rows keep the
 * choice fitted to the chosen model.
 */
export function GenerationControls({
	isSignedIn,
	isAuthLoading,
	choice,
	onChoiceChange,
	askedSettings,
	startError,
	onImageChosen,
	reference,
	boardIds,
	onBoardIdsChange,
	prompt,
	promptRef,
	onPromptChange,
	onBatchRequestChange,
}: GenerationControlsProps) {
	usePromptRecall(promptRef, onPromptChange, isSignedIn);
	const advancedId = useId();
	const [isAdvancedOpen, setIsAdvancedOpen] = useState(false);
	const { data: answer } = useOfferedModels({
		isSignedIn,
		enabled: !isAuthLoading,
		// A model that only upscales makes nothing from a prompt: it is never offered here.
		select: listTextModels,
	});

	const latest = useRef({ choice, onChoiceChange });
	useEffect(() => {
		latest.current = { choice, onChoiceChange };
	});
	const isEnhanceOn = usePublicConfig().data?.enhance === true;
	const chooseStyle = useCallback((styleId: string | null) => {
		const current = latest.current.choice;
		if (current) latest.current.onChoiceChange({ ...current, styleId });
	}, []);

	// The first choice, and what a link or an image asks for: fitted once the models are known.
	// Choosing it ends the asking (the form's chooseSettings), so this runs again for nothing.
	const hasChoice = choice !== null;
	useEffect(() => {
		if (!answer || (hasChoice && !askedSettings)) return;
		const applied = applyPrefill(answer, askedSettings, latest.current.choice);
		if (applied.choice) latest.current.onChoiceChange(applied.choice);
		if (applied.isModelGone) void showToast("info", MODEL_NO_LONGER_OFFERED);
		// What a link or an image fills in under Advanced settings is shown, not hidden.
		if (
			askedSettings &&
			(askedSettings.seed !== null || askedSettings.negativePrompt || askedSettings.styleId)
		) {
			setIsAdvancedOpen(true);
		}
	}, [answer, askedSettings, hasChoice]);

	const errorField = readFieldOfMessage(startError);
	const fieldMessage = (field: SettingsField) => (errorField === field ? startError : null);

	useEffect(() => {
		if (errorField && ADVANCED_FIELDS.includes(errorField)) setIsAdvancedOpen(true);
	}, [errorField]);

	const isEnhanceRowKept = hasEnhanceRow({ isSignedIn, isAuthLoading });
	if (!answer || !choice) return <SettingsPlaceholder isEnhanceRowKept={isEnhanceRowKept} />;

	const { model } = choice;
	// A signed-in person always has Style there, whatever the model.
	const hasAdvanced =
		isSignedIn || model.seed || model.negativePrompt || model.qualities.length > 0;

	return (
		<>
			<ModelAndCountRow
				models={answer.models}
				choice={choice}
				onChoiceChange={onChoiceChange}
				fieldMessage={fieldMessage}
			/>
			{isSignedIn && isEnhanceOn ? (
				<PromptEnhance
					prompt={prompt}
					promptRef={promptRef}
					onPromptChange={onPromptChange}
					onUse={(enhanced) => onChoiceChange({ ...choice, enhanced })}
				/>
			) : null}
			<AdvancedRow
				isSignedIn={isSignedIn}
				hasAdvanced={hasAdvanced}
				isAdvancedOpen={isAdvancedOpen}
				onAdvancedOpenChange={setIsAdvancedOpen}
				advancedId={advancedId}
				promptRef={promptRef}
				onPromptChange={onPromptChange}
				onImageChosen={onImageChosen}
			/>
			{hasAdvanced ? (
				<AdvancedPanel
					id={advancedId}
					isOpen={isAdvancedOpen}
					isSignedIn={isSignedIn}
					choice={choice}
					onChoiceChange={onChoiceChange}
					onStyleChange={chooseStyle}
					prompt={prompt}
					fieldMessage={fieldMessage}
					boardIds={boardIds}
					onBoardIdsChange={onBoardIdsChange}
				/>
			) : null}
			{/* After the settings, so the keyboard meets them in the order they always had. */}
			<ReferenceBatchNotifyRows
				isSignedIn={isSignedIn}
				models={answer.models}
				model={model}
				count={choice.count}
				reference={reference}
				prompt={prompt}
				onBatchRequestChange={onBatchRequestChange}
			/>
		</>
	);
}
