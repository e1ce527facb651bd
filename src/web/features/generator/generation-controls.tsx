// The settings beside the prompt: the Model (model-select.tsx), the number of Images
// (segments.tsx), the Advanced settings (advanced-settings.tsx: Seed, Negative prompt, Quality),
// each shown only where the chosen model offers it, "Load settings from image"
// (load-settings-from-image.tsx), the reference image and Notify me when done with its sound.
// Loaded on demand with the models (generation-code.ts); the first page holds a frame of the same
// height in their place (settings-frame.tsx).
import { ChevronRight } from "lucide-react";
import { type RefObject, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { MODEL_NO_LONGER_OFFERED } from "../../../shared/generation-settings";
import {
	generatorAdvancedSettings,
	generatorImageCount,
	generatorImages,
} from "../../../shared/i18n/messages";
import { ModelSelect } from "../../components/model-select";
import { Segments } from "../../components/segments";
import { joinClassNames } from "../../lib/class-names";
import { readEditReference } from "../../lib/image-actions";
import { useOfferedModels } from "../../lib/models-requests";
import { usePublicConfig } from "../../lib/public-config";
import { showToast } from "../../lib/toast";
import { AddToBoardsField } from "./add-to-boards-field";
import { AdvancedSettings } from "./advanced-settings";
import { type BatchChoice, type BatchRequest, NO_BATCH, toBatchRequest } from "./batch-choice";
import { BatchField } from "./batch-field";
import type { SettingsChoice, SettingsPrefill } from "./generation-choice";
import { LoadSettingsFromImage } from "./load-settings-from-image";
import { applyPrefill, fitChoice, listTextModels } from "./model-choice";
import { NotifySwitches } from "./notify-switches";
import { PromptEnhance } from "./prompt-enhance";
import { usePromptRecall } from "./prompt-recall";
import { RecentPromptsMenu } from "./recent-prompts-menu";
import { ReferenceImageField } from "./reference-image-field";
import { readFieldOfMessage, type SettingsField } from "./settings-field";
import {
	hasEnhanceRow,
	SETTINGS_BAR_CLASS_NAME,
	SETTINGS_BAR_ITEM_CLASS_NAME,
	SETTINGS_ROW_CLASS_NAME,
	SettingsPlaceholder,
} from "./settings-frame";
import { StyleField } from "./style-field";
import {
	type ReferenceRequest,
	type SentReference,
	useReferenceImage,
} from "./use-reference-image";

/** A prefill to apply once; a new `id` applies the next one (another image dropped). */
export type PendingPrefill = { id: number; value: SettingsPrefill };

type GenerationControlsProps = {
	isSignedIn: boolean;
	isAuthLoading: boolean;
	choice: SettingsChoice | null;
	onChoiceChange: (choice: SettingsChoice) => void;
	/** What a link or a dropped image asks for, applied once the models are known. */
	prefill: PendingPrefill | null;
	/** The message of a refused start: a setting it names is marked. */
	startError: string | null;
	onImageChosen: (file: File) => void;
	/** What the form asks of the reference image (a drop, Edit, Escape), applied once each. */
	referenceRequest: ReferenceRequest;
	/** What a start sends of the reference: none while there is none or the model takes none. */
	onReferenceChange: (sent: SentReference | null) => void;
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

/**
 * The settings for the next generation. Asks for the models, starts from the link's model, else
 * the person's last, else the default, and keeps the choice fitted to the chosen model.
 */
export function GenerationControls({
	isSignedIn,
	isAuthLoading,
	choice,
	onChoiceChange,
	prefill,
	startError,
	onImageChosen,
	referenceRequest,
	onReferenceChange,
	boardIds,
	onBoardIdsChange,
	prompt,
	promptRef,
	onPromptChange,
	onBatchRequestChange,
}: GenerationControlsProps) {
	usePromptRecall(promptRef, onPromptChange, isSignedIn);
	const reference = useReferenceImage();
	const appliedReferenceIdRef = useRef<number | null>(null);
	const { addFile, chooseImage, remove } = reference;
	useEffect(() => {
		if (referenceRequest.id === appliedReferenceIdRef.current) return;
		appliedReferenceIdRef.current = referenceRequest.id;
		if ("file" in referenceRequest) addFile(referenceRequest.file);
		else if ("image" in referenceRequest) chooseImage(referenceRequest.image);
		else if ("search" in referenceRequest) {
			const linked = readEditReference(referenceRequest.search);
			if (linked) chooseImage({ input: linked, thumbnailUrl: null });
		} else remove();
	}, [referenceRequest, addFile, chooseImage, remove]);
	const takesImage = choice?.model.imageInput === true;
	const sentInput = takesImage ? reference.reference?.input : undefined;
	// A model that decides by itself how far to move from the image is sent no strength.
	const sentStrength = choice?.model.referenceStrength === true ? reference.strength : null;
	useEffect(() => {
		onReferenceChange(
			sentInput
				? { reference: sentInput, ...(sentStrength === null ? {} : { strength: sentStrength }) }
				: null,
		);
	}, [sentInput, sentStrength, onReferenceChange]);
	const advancedId = useId();
	const [batchChoice, setBatchChoice] = useState<BatchChoice>(NO_BATCH);
	const batchRequest = useMemo(() => toBatchRequest(batchChoice, prompt), [batchChoice, prompt]);
	useEffect(() => {
		onBatchRequestChange?.(batchRequest);
	}, [batchRequest, onBatchRequestChange]);
	const [isAdvancedOpen, setIsAdvancedOpen] = useState(false);
	const appliedPrefillIdRef = useRef<number | null>(null);
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

	useEffect(() => {
		if (!answer) return;
		const current = latest.current.choice;
		const pending = prefill && prefill.id !== appliedPrefillIdRef.current ? prefill : null;
		if (current && !pending) return;
		if (pending) appliedPrefillIdRef.current = pending.id;
		const applied = applyPrefill(answer, pending?.value ?? null, current);
		if (applied.choice) latest.current.onChoiceChange(applied.choice);
		if (applied.isModelGone) void showToast("info", MODEL_NO_LONGER_OFFERED);
		// What a link or an image fills in under Advanced settings is shown, not hidden.
		if (
			pending &&
			(pending.value.seed !== null || pending.value.negativePrompt || pending.value.styleId)
		) {
			setIsAdvancedOpen(true);
		}
	}, [answer, prefill]);

	const errorField = readFieldOfMessage(startError);
	const fieldMessage = (field: SettingsField) => (errorField === field ? startError : null);

	useEffect(() => {
		if (
			errorField === "seed" ||
			errorField === "negativePrompt" ||
			errorField === "quality" ||
			errorField === "style"
		) {
			setIsAdvancedOpen(true);
		}
	}, [errorField]);

	const isEnhanceRowKept = hasEnhanceRow({ isSignedIn, isAuthLoading });
	if (!answer || !choice) return <SettingsPlaceholder isEnhanceRowKept={isEnhanceRowKept} />;

	const { model } = choice;
	const change = (update: Partial<SettingsChoice>) => onChoiceChange({ ...choice, ...update });
	const chooseModel = (id: string) => {
		const next = answer.models.find((candidate) => candidate.id === id);
		if (next) onChoiceChange(fitChoice(next, choice));
	};
	// A signed-in person always has Style there, whatever the model.
	const hasAdvanced =
		isSignedIn || model.seed || model.negativePrompt || model.qualities.length > 0;

	return (
		<>
			<div className={SETTINGS_ROW_CLASS_NAME}>
				{answer.models.length > 1 ? (
					<ModelSelect
						models={answer.models}
						value={model.id}
						onChange={chooseModel}
						message={fieldMessage("model")}
					/>
				) : null}
				<Segments
					label={generatorImages()}
					name="count"
					options={model.counts}
					value={choice.count}
					onChange={(count) => change({ count })}
					describe={(count) => ({
						shown: String(count),
						spoken: generatorImageCount({ count }),
					})}
					message={fieldMessage("count")}
				/>
			</div>
			{isSignedIn && isEnhanceOn ? (
				<PromptEnhance
					prompt={prompt}
					promptRef={promptRef}
					onPromptChange={onPromptChange}
					onUse={(enhanced) => change({ enhanced })}
				/>
			) : null}
			<div className={SETTINGS_BAR_CLASS_NAME}>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME}>
					{hasAdvanced ? (
						<button
							type="button"
							aria-expanded={isAdvancedOpen}
							aria-controls={advancedId}
							onClick={() => setIsAdvancedOpen((isOpen) => !isOpen)}
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
			{hasAdvanced ? (
				<div
					id={advancedId}
					hidden={!isAdvancedOpen}
					className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
				>
					{isAdvancedOpen ? (
						<>
							<StyleField
								isSignedIn={isSignedIn}
								styleId={choice.styleId ?? null}
								onChange={chooseStyle}
								prompt={prompt}
								negativePrompt={model.negativePrompt ? choice.negativePrompt : ""}
								message={fieldMessage("style")}
							/>
							<AdvancedSettings choice={choice} onChange={change} fieldMessage={fieldMessage} />
						</>
					) : null}
					{isAdvancedOpen && isSignedIn ? (
						<AddToBoardsField boardIds={boardIds} onChange={onBoardIdsChange} />
					) : null}
				</div>
			) : null}
			{/* After the settings, so the keyboard meets them in the order they always had. */}
			<ReferenceImageField model={model} reference={reference} />
			{isSignedIn ? (
				<BatchField
					prompt={prompt}
					models={answer.models}
					model={model}
					count={choice.count}
					value={batchChoice}
					onChange={setBatchChoice}
				/>
			) : null}
			<NotifySwitches />
		</>
	);
}
