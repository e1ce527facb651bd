// Variations and Compare models: one submission making several generations, a batch (decision
// 038). Variations shows once the prompt holds a {a|b} choice; Compare models ticks two to four
// models, each with its price. The line under them says how many generations Generate makes and,
// where every model has a price, what they cost.
import { useId } from "react";
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from "../../../../shared/generations/batches";
import type { PublicModel } from "../../../../shared/generations/models";
import {
	generatorBatchMakes,
	generatorBatchTotal,
	generatorChooseModels,
	generatorCompareModels,
	generatorHowMany,
	generatorModelsToCompare,
	generatorNoPrice,
	generatorPricePerGeneration,
	generatorVariations,
	generatorVariationsAll,
	generatorVariationsOff,
	generatorVariationsRandom,
} from "../../../../shared/i18n/messages";
import { parseVariations } from "../../../../shared/prompts/prompt-variations";
import { formatMoney } from "../../../lib/ui/number-format";
import { type BatchChoice, canCompareMore, summarizeBatch } from "./batch-choice";

type BatchFieldProps = {
	prompt: string;
	models: readonly PublicModel[];
	/** The model chosen above, which a batch without Compare models uses. */
	model: PublicModel;
	/** Images per generation. */
	count: number;
	value: BatchChoice;
	onChange: (choice: BatchChoice) => void;
};

const VARIATION_OPTIONS = [
	{ value: "off", label: generatorVariationsOff },
	{ value: "all", label: generatorVariationsAll },
	{ value: "random", label: generatorVariationsRandom },
] as const;

const LEGEND_CLASS_NAME = "text-sm font-medium text-slate-800";
const OPTION_CLASS_NAME = "inline-flex items-center gap-2 text-sm text-slate-700";

export function BatchField({ prompt, models, model, count, value, onChange }: BatchFieldProps) {
	const randomId = useId();
	const summaryId = useId();
	const parsed = parseVariations(prompt);
	const canVary = parsed.ok && parsed.groups > 0;
	const combinations = parsed.ok ? parsed.combinations : 1;
	const choice = canVary ? value : { ...value, variations: "off" as const };
	const summary = summarizeBatch(choice, prompt, models, model, count);
	const isBatch = summary.generations > 1;
	return (
		<div className="space-y-3">
			{canVary ? (
				<fieldset className="space-y-2" aria-describedby={summaryId}>
					<legend className={LEGEND_CLASS_NAME}>{generatorVariations()}</legend>
					<div className="flex flex-wrap items-center gap-x-4 gap-y-2">
						{VARIATION_OPTIONS.map((option) => (
							<label key={option.value} className={OPTION_CLASS_NAME}>
								<input
									type="radio"
									name="variations"
									value={option.value}
									checked={value.variations === option.value}
									onChange={() => onChange({ ...value, variations: option.value })}
									className="size-4 accent-accent-600"
								/>
								{option.label()}
							</label>
						))}
						{value.variations === "random" ? (
							<span className={OPTION_CLASS_NAME}>
								<label htmlFor={randomId}>{generatorHowMany()}</label>
								<select
									id={randomId}
									value={Math.min(value.randomCount, combinations)}
									onChange={(event) =>
										onChange({ ...value, randomCount: Number(event.target.value) })
									}
									className="h-9 rounded-lg border border-slate-300 px-2 text-sm"
								>
									{Array.from({ length: Math.min(combinations, 100) }, (_, index) => index + 1).map(
										(picks) => (
											<option key={picks} value={picks}>
												{picks}
											</option>
										),
									)}
								</select>
							</span>
						) : null}
					</div>
				</fieldset>
			) : null}
			{models.length >= MIN_COMPARED_MODELS ? (
				<div className="space-y-2">
					<label className={OPTION_CLASS_NAME}>
						<input
							type="checkbox"
							checked={value.isComparing}
							onChange={(event) =>
								onChange({
									...value,
									isComparing: event.target.checked,
									comparedModelIds:
										value.comparedModelIds.length > 0 ? value.comparedModelIds : [model.id],
								})
							}
							className="size-4 accent-accent-600"
						/>
						{generatorCompareModels()}
					</label>
					{value.isComparing ? (
						<fieldset className="space-y-1.5 pl-6" aria-describedby={summaryId}>
							<legend className="sr-only">
								{generatorModelsToCompare({ min: MIN_COMPARED_MODELS, max: MAX_COMPARED_MODELS })}
							</legend>
							{models.map((candidate) => {
								const isChecked = value.comparedModelIds.includes(candidate.id);
								const price = candidate.pricePerImage;
								return (
									<label key={candidate.id} className={OPTION_CLASS_NAME}>
										<input
											type="checkbox"
											checked={isChecked}
											disabled={!isChecked && !canCompareMore(value)}
											onChange={() =>
												onChange({
													...value,
													comparedModelIds: models
														.map(({ id }) => id)
														.filter((id) =>
															id === candidate.id
																? !isChecked
																: value.comparedModelIds.includes(id),
														),
												})
											}
											className="size-4 accent-accent-600"
										/>
										<span>
											{`${candidate.label} · `}
											<span className="text-slate-500">
												{price === null
													? generatorNoPrice()
													: generatorPricePerGeneration({ price: formatMoney(price * count) })}
											</span>
										</span>
									</label>
								);
							})}
						</fieldset>
					) : null}
				</div>
			) : null}
			<p id={summaryId} aria-live="polite" className="text-sm text-slate-600">
				{isBatch ? (
					<>
						{generatorBatchMakes({ count: summary.generations })}
						{summary.total === null
							? null
							: ` · ${generatorBatchTotal({ total: formatMoney(summary.total) })}`}
					</>
				) : value.isComparing ? (
					generatorChooseModels({ min: MIN_COMPARED_MODELS, max: MAX_COMPARED_MODELS })
				) : null}
			</p>
		</div>
	);
}
