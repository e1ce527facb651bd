// Advanced settings: Seed, Negative prompt and Quality, each where the chosen model offers it.
import { useId } from "react";
import { MAX_PROMPT_LENGTH } from "../../../../shared/core/constants";
import type { Quality } from "../../../../shared/generations/generation-settings";
import {
	generatorCharacters,
	generatorNegativePrompt,
	generatorNegativePromptPlaceholder,
	generatorQuality,
	generatorQualityHigh,
	generatorQualityLow,
	generatorQualityMedium,
} from "../../../../shared/i18n/messages";
import { sanitizePrompt, validateNegativePrompt } from "../../../../shared/prompts/prompt";
import { LABEL_CLASS_NAME } from "../../../components/forms/field-classes";
import { SeedField } from "../../../components/forms/seed-field";
import { Segments } from "../../../components/forms/segments";
import { joinClassNames } from "../../../lib/ui/class-names";
import type { SettingsChoice } from "./generation-choice";
import type { SettingsField } from "./settings-field";

const QUALITY_LABELS: Record<Quality, () => string> = {
	low: generatorQualityLow,
	medium: generatorQualityMedium,
	high: generatorQualityHigh,
};

type AdvancedSettingsProps = {
	choice: SettingsChoice;
	onChange: (change: Partial<SettingsChoice>) => void;
	fieldMessage: (field: SettingsField) => string | null;
};

/** Seed, Negative prompt and Quality, each where the chosen model offers it. */
export function AdvancedSettings({ choice, onChange, fieldMessage }: AdvancedSettingsProps) {
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
				<SeedField
					value={choice.seed}
					onChange={(seed) => onChange({ seed })}
					message={seedMessage}
					inputClassName={inputClassName(seedMessage)}
				/>
			) : null}
			{model.negativePrompt ? (
				<div>
					<label htmlFor={negativeId} className={LABEL_CLASS_NAME}>
						{generatorNegativePrompt()}
					</label>
					<textarea
						id={negativeId}
						name="negativePrompt"
						rows={2}
						maxLength={MAX_PROMPT_LENGTH}
						placeholder={generatorNegativePromptPlaceholder()}
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
							<span className="sr-only"> {generatorCharacters()}</span>
						</p>
					</div>
				</div>
			) : null}
			{model.qualities.length > 0 ? (
				<Segments
					label={generatorQuality()}
					name="quality"
					options={model.qualities}
					value={choice.quality}
					onChange={(quality) => onChange({ quality })}
					describe={(quality) => ({ shown: QUALITY_LABELS[quality]() })}
					message={fieldMessage("quality")}
				/>
			) : null}
		</>
	);
}
