// Advanced settings: Seed, Negative prompt and Quality, each where the chosen model offers it.
import { Dices } from "lucide-react";
import { useId } from "react";
import { MAX_PROMPT_LENGTH } from "../../../shared/constants";
import { MAX_SEED, type Quality } from "../../../shared/generation-settings";
import { sanitizePrompt, validateNegativePrompt } from "../../../shared/prompt";
import { FIELD_MESSAGE_CLASS_NAME, LABEL_CLASS_NAME } from "../../components/field-classes";
import { Segments } from "../../components/segments";
import { joinClassNames } from "../../lib/class-names";
import type { SettingsChoice } from "./generation-choice";
import type { SettingsField } from "./settings-field";

const QUALITY_LABELS: Record<Quality, string> = { low: "Low", medium: "Medium", high: "High" };

type AdvancedSettingsProps = {
	choice: SettingsChoice;
	onChange: (change: Partial<SettingsChoice>) => void;
	fieldMessage: (field: SettingsField) => string | null;
};

/** Seed, Negative prompt and Quality, each where the chosen model offers it. */
export function AdvancedSettings({ choice, onChange, fieldMessage }: AdvancedSettingsProps) {
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
