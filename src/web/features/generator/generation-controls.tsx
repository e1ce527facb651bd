// The settings beside the prompt: the Model, the number of Images, and the Advanced settings
// (Seed, Negative prompt, Quality), each shown only where the chosen model offers it, the
// "Load settings from image" button, and Notify me when done with its sound. Loaded on demand with the models (generation-code.ts); the
// first page holds a frame of the same height in their place (settings-frame.tsx).
import { ChevronDown, ChevronRight, Dices, ImageUp } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { MAX_PROMPT_LENGTH } from "../../../shared/constants";
import {
	MAX_SEED,
	MODEL_NO_LONGER_OFFERED,
	type Quality,
} from "../../../shared/generation-settings";
import type { PublicModel } from "../../../shared/models";
import { sanitizePrompt, validateNegativePrompt } from "../../../shared/prompt";
import { joinClassNames } from "../../lib/class-names";
import { readEditReference } from "../../lib/image-actions";
import { useOfferedModels } from "../../lib/models-requests";
import { formatPrice } from "../../lib/number-format";
import { showToast } from "../../lib/toast";
import type { SettingsChoice, SettingsPrefill } from "./generation-choice";
import { applyPrefill, fitChoice, listTextModels } from "./model-choice";
import { NotifySwitches } from "./notify-switches";
import { ReferenceImageField } from "./reference-image-field";
import {
	SETTINGS_BAR_CLASS_NAME,
	SETTINGS_BAR_ITEM_CLASS_NAME,
	SETTINGS_ROW_CLASS_NAME,
	SettingsPlaceholder,
} from "./settings-frame";
import {
	type ReferenceRequest,
	type SentReference,
	useReferenceImage,
} from "./use-reference-image";

/** A prefill to apply once; a new `id` applies the next one (another image dropped). */
export type PendingPrefill = { id: number; value: SettingsPrefill };

type Field = "model" | "count" | "seed" | "negativePrompt" | "quality";

// The server's 400 names the field its message is about first (generations.ts, resolve-settings.ts).
const FIELD_MESSAGE_PATTERNS: ReadonlyArray<[RegExp, Field]> = [
	[/^model\b/, "model"],
	[/^count\b/, "count"],
	[/^seed\b/, "seed"],
	[/^(negativePrompt|Negative prompt)\b/, "negativePrompt"],
	[/^quality\b/, "quality"],
];

/** The field a refused start's message is about, if it names one of these settings. */
function readFieldOfMessage(message: string | null): Field | null {
	if (!message) return null;
	return FIELD_MESSAGE_PATTERNS.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}

/** An option's text: the label, the description and the price per image, where set. */
export function describeModel(model: PublicModel): string {
	const parts = [model.label];
	if (model.description) parts.push(` — ${model.description}`);
	if (model.pricePerImage !== null) {
		parts.push(` · ${formatPrice(model.pricePerImage)} per image`);
	}
	return parts.join("");
}

const QUALITY_LABELS: Record<Quality, string> = { low: "Low", medium: "Medium", high: "High" };

const LABEL_CLASS_NAME = "mb-1.5 block text-sm font-medium text-slate-800";
const FIELD_MESSAGE_CLASS_NAME = "mt-1.5 text-xs font-medium text-red-700";
const SEGMENT_GROUP_CLASS_NAME = "flex h-11 gap-1 rounded-lg bg-slate-100 p-1";
const SEGMENT_CLASS_NAME =
	"relative flex min-w-9 cursor-pointer items-center justify-center rounded-md px-2 text-sm font-medium text-slate-700 has-checked:bg-white has-checked:text-accent-700 has-checked:shadow-sm has-focus-visible:ring-2 has-focus-visible:ring-accent-600";

type SegmentsProps<Value extends string | number> = {
	label: string;
	name: string;
	options: readonly Value[];
	value: Value | null;
	onChange: (value: Value) => void;
	/** The option's text, and its name for screen readers where the text alone says too little. */
	describe: (value: Value) => { shown: string; spoken?: string };
	message: string | null;
};

/** A radio group drawn as segments: native radios, so arrows move the choice as usual. */
function Segments<Value extends string | number>({
	label,
	name,
	options,
	value,
	onChange,
	describe,
	message,
}: SegmentsProps<Value>) {
	const labelId = useId();
	const messageId = useId();
	return (
		<div className="shrink-0">
			<span id={labelId} className={LABEL_CLASS_NAME}>
				{label}
			</span>
			<div
				role="radiogroup"
				aria-labelledby={labelId}
				aria-describedby={message ? messageId : undefined}
				className={joinClassNames(SEGMENT_GROUP_CLASS_NAME, message && "ring-2 ring-red-400")}
			>
				{options.map((option) => {
					const { shown, spoken } = describe(option);
					return (
						<label key={option} className={SEGMENT_CLASS_NAME}>
							<input
								type="radio"
								name={name}
								value={option}
								checked={option === value}
								onChange={() => onChange(option)}
								aria-label={spoken}
								className="sr-only"
							/>
							{shown}
						</label>
					);
				})}
			</div>
			{message ? (
				<p id={messageId} className={FIELD_MESSAGE_CLASS_NAME}>
					{message}
				</p>
			) : null}
		</div>
	);
}

type ModelSelectProps = {
	models: PublicModel[];
	value: string;
	onChange: (id: string) => void;
	message: string | null;
};

/** The Model control: a native select, whose options show label, description and price. */
function ModelSelect({ models, value, onChange, message }: ModelSelectProps) {
	const fieldId = useId();
	const messageId = useId();
	return (
		<div className="relative min-w-0 flex-1">
			<label htmlFor={fieldId} className={LABEL_CLASS_NAME}>
				Model
			</label>
			<select
				id={fieldId}
				name="model"
				value={value}
				onChange={(event) => onChange(event.target.value)}
				aria-invalid={message ? true : undefined}
				aria-describedby={message ? messageId : undefined}
				className={joinClassNames(
					"block h-11 w-full cursor-pointer appearance-none truncate rounded-lg bg-white pr-9 pl-3 text-base text-slate-900 shadow-sm ring-1 ring-inset focus:ring-2 focus:outline-none sm:text-sm",
					message ? "ring-red-400 focus:ring-red-600" : "ring-slate-300 focus:ring-accent-600",
				)}
			>
				{models.map((model) => (
					<option key={model.id} value={model.id}>
						{describeModel(model)}
					</option>
				))}
			</select>
			<ChevronDown
				aria-hidden="true"
				className="pointer-events-none absolute right-3 bottom-3.5 size-4 text-slate-500"
			/>
			{message ? (
				<p id={messageId} className={FIELD_MESSAGE_CLASS_NAME}>
					{message}
				</p>
			) : null}
		</div>
	);
}

type AdvancedSettingsProps = {
	choice: SettingsChoice;
	onChange: (change: Partial<SettingsChoice>) => void;
	fieldMessage: (field: Field) => string | null;
};

/** Seed, Negative prompt and Quality, each where the chosen model offers it. */
function AdvancedSettings({ choice, onChange, fieldMessage }: AdvancedSettingsProps) {
	const seedId = useId();
	const seedMessageId = useId();
	const negativeId = useId();
	const negativeMessageId = useId();
	const { model } = choice;
	const seedMessage = fieldMessage("seed");
	const negativeCheck = validateNegativePrompt(choice.negativePrompt);
	const negativeMessage = negativeCheck.ok ? fieldMessage("negativePrompt") : negativeCheck.message;
	const inputClassName = (message: string | null) =>
		joinClassNames(
			"block w-full rounded-lg border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:outline-none sm:text-sm",
			message ? "ring-red-400 focus:ring-red-600" : "ring-slate-300 focus:ring-accent-600",
		);
	return (
		<>
			{model.seed ? (
				<div>
					<label htmlFor={seedId} className={LABEL_CLASS_NAME}>
						Seed
					</label>
					<div className="flex gap-2">
						<input
							id={seedId}
							name="seed"
							type="number"
							inputMode="numeric"
							min={0}
							max={MAX_SEED}
							step={1}
							placeholder="Random"
							value={choice.seed}
							onChange={(event) => onChange({ seed: event.target.value })}
							aria-invalid={seedMessage ? true : undefined}
							aria-describedby={seedMessageId}
							className={joinClassNames("h-11 min-w-0 flex-1", inputClassName(seedMessage))}
						/>
						<button
							type="button"
							onClick={() => onChange({ seed: "" })}
							disabled={choice.seed === ""}
							className="inline-flex h-11 shrink-0 cursor-pointer items-center gap-1.5 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50 disabled:cursor-default disabled:opacity-60"
						>
							<Dices aria-hidden="true" className="size-4" />
							Random seed
						</button>
					</div>
					<p
						id={seedMessageId}
						className={seedMessage ? FIELD_MESSAGE_CLASS_NAME : "mt-1.5 text-xs text-slate-600"}
					>
						{seedMessage ??
							`Empty for a new random seed each time; the same seed and settings make the same images.`}
					</p>
				</div>
			) : null}
			{model.negativePrompt ? (
				<div>
					<label htmlFor={negativeId} className={LABEL_CLASS_NAME}>
						Negative prompt
					</label>
					<textarea
						id={negativeId}
						name="negativePrompt"
						rows={2}
						maxLength={MAX_PROMPT_LENGTH}
						placeholder="What to leave out..."
						value={choice.negativePrompt}
						onChange={(event) => onChange({ negativePrompt: sanitizePrompt(event.target.value) })}
						aria-invalid={negativeMessage ? true : undefined}
						aria-describedby={negativeMessage ? negativeMessageId : undefined}
						className={joinClassNames("resize-y py-2.5", inputClassName(negativeMessage))}
					/>
					<div className="mt-1.5 flex items-start justify-between gap-3 text-xs">
						<p id={negativeMessageId} className="font-medium text-red-700">
							{negativeMessage}
						</p>
						<p className="shrink-0 text-slate-600 tabular-nums">
							{choice.negativePrompt.length}/{MAX_PROMPT_LENGTH}
							<span className="sr-only"> characters</span>
						</p>
					</div>
				</div>
			) : null}
			{model.qualities.length > 0 ? (
				<Segments
					label="Quality"
					name="quality"
					options={model.qualities}
					value={choice.quality}
					onChange={(quality) => onChange({ quality })}
					describe={(quality) => ({ shown: QUALITY_LABELS[quality] })}
					message={fieldMessage("quality")}
				/>
			) : null}
		</>
	);
}

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
}: GenerationControlsProps) {
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
	const fileInputRef = useRef<HTMLInputElement>(null);
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
		if (pending && (pending.value.seed !== null || pending.value.negativePrompt)) {
			setIsAdvancedOpen(true);
		}
	}, [answer, prefill]);

	const errorField = readFieldOfMessage(startError);
	const fieldMessage = (field: Field) => (errorField === field ? startError : null);

	useEffect(() => {
		if (errorField === "seed" || errorField === "negativePrompt" || errorField === "quality") {
			setIsAdvancedOpen(true);
		}
	}, [errorField]);

	if (!answer || !choice) return <SettingsPlaceholder />;

	const { model } = choice;
	const change = (update: Partial<SettingsChoice>) => onChoiceChange({ ...choice, ...update });
	const chooseModel = (id: string) => {
		const next = answer.models.find((candidate) => candidate.id === id);
		if (next) onChoiceChange(fitChoice(next, choice));
	};
	const hasAdvanced = model.seed || model.negativePrompt || model.qualities.length > 0;

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
					label="Images"
					name="count"
					options={model.counts}
					value={choice.count}
					onChange={(count) => change({ count })}
					describe={(count) => ({
						shown: String(count),
						spoken: count === 1 ? "1 image" : `${count} images`,
					})}
					message={fieldMessage("count")}
				/>
			</div>
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
							Advanced settings
						</button>
					) : null}
				</div>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME}>
					<button
						type="button"
						onClick={() => fileInputRef.current?.click()}
						className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50"
					>
						<ImageUp aria-hidden="true" className="size-4" />
						Load settings from image
					</button>
					<input
						ref={fileInputRef}
						type="file"
						accept="image/png,image/jpeg,image/webp"
						hidden
						aria-label="Image to load settings from"
						onChange={(event) => {
							const file = event.target.files?.[0];
							// Cleared, so choosing the same file again loads it again.
							event.target.value = "";
							if (file) onImageChosen(file);
						}}
					/>
				</div>
			</div>
			{hasAdvanced ? (
				<div
					id={advancedId}
					hidden={!isAdvancedOpen}
					className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
				>
					{isAdvancedOpen ? (
						<AdvancedSettings choice={choice} onChange={change} fieldMessage={fieldMessage} />
					) : null}
				</div>
			) : null}
			{/* After the settings, so the keyboard meets them in the order they always had. */}
			<ReferenceImageField model={model} reference={reference} />
			<NotifySwitches />
		</>
	);
}
