// The Model control: a native select, shown when more than one model is offered.
import { ChevronDown } from "lucide-react";
import { useId } from "react";
import { type PublicModel, translateModelDescription } from "../../../shared/generations/models";
import { generatorModel, generatorPricePerImage } from "../../../shared/i18n/messages";
import { joinClassNames } from "../../lib/ui/class-names";
import { formatPrice } from "../../lib/ui/number-format";
import { FIELD_MESSAGE_CLASS_NAME, LABEL_CLASS_NAME } from "./field-classes";

/** An option's text: the label, the description and the price per image, where set. */
export function describeModel(model: PublicModel): string {
	const parts = [model.label];
	if (model.description) parts.push(` — ${translateModelDescription(model.description)}`);
	if (model.pricePerImage !== null) {
		parts.push(` · ${generatorPricePerImage({ price: formatPrice(model.pricePerImage) })}`);
	}
	return parts.join("");
}

type ModelSelectProps = {
	models: PublicModel[];
	value: string;
	onChange: (id: string) => void;
	message: string | null;
};

/** The Model control: a native select, whose options show label, description and price. */
export function ModelSelect({ models, value, onChange, message }: ModelSelectProps) {
	const fieldId = useId();
	const messageId = useId();
	return (
		<div className="relative min-w-0 flex-1">
			<label htmlFor={fieldId} className={LABEL_CLASS_NAME}>
				{generatorModel()}
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
