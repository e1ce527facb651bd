// The settings' first row: the Model (model-select.tsx, where more than one is offered) and the
// number of Images (segments.tsx), as the chosen model offers them.

import type { PublicModel } from "../../../../shared/generations/models";
import { generatorImageCount, generatorImages } from "../../../../shared/i18n/messages";
import { ModelSelect } from "../../../components/forms/model-select";
import { Segments } from "../../../components/forms/segments";
import type { SettingsChoice } from "./generation-choice";
import { fitChoice } from "./model-choice";
import type { SettingsField } from "./settings-field";
import { SETTINGS_ROW_CLASS_NAME } from "./settings-frame";

type ModelAndCountRowProps = {
	models: PublicModel[];
	choice: SettingsChoice;
	onChoiceChange: (choice: SettingsChoice) => void;
	/** The refused start's message where it names this field. */
	fieldMessage: (field: SettingsField) => string | null;
};

export function ModelAndCountRow({
	models,
	choice,
	onChoiceChange,
	fieldMessage,
}: ModelAndCountRowProps) {
	const chooseModel = (id: string) => {
		const next = models.find((candidate) => candidate.id === id);
		if (next) onChoiceChange(fitChoice(next, choice));
	};
	return (
		<div className={SETTINGS_ROW_CLASS_NAME}>
			{models.length > 1 ? (
				<ModelSelect
					models={models}
					value={choice.model.id}
					onChange={chooseModel}
					message={fieldMessage("model")}
				/>
			) : null}
			<Segments
				label={generatorImages()}
				name="count"
				options={choice.model.counts}
				value={choice.count}
				onChange={(count) => onChoiceChange({ ...choice, count })}
				describe={(count) => ({
					shown: String(count),
					spoken: generatorImageCount({ count }),
				})}
				message={fieldMessage("count")}
			/>
		</div>
	);
}
