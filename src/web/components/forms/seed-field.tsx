// The seed as the generator and the editor offer it: a number, empty for a random one, and the
// dice that empty it.
import { Dices } from "lucide-react";
import { useId } from "react";
import { MAX_SEED } from "../../../shared/generations/generation-settings";
import {
	generatorRandomSeed,
	generatorSeed,
	generatorSeedHint,
	generatorSeedPlaceholder,
} from "../../../shared/i18n/messages";
import { joinClassNames } from "../../lib/ui/class-names";
import { FIELD_MESSAGE_CLASS_NAME, LABEL_CLASS_NAME } from "./field-classes";

type SeedFieldProps = {
	/** The seed as typed; empty for a new random seed each time. */
	value: string;
	onChange: (value: string) => void;
	/** The server's or the form's word on the seed, shown in place of the help. */
	message: string | null;
	/** The class names of the input's ring and text, as its form draws its other fields. */
	inputClassName: string;
};

/** Seed, its Random seed dice and its help (or message). */
export function SeedField({ value, onChange, message, inputClassName }: SeedFieldProps) {
	const seedId = useId();
	const seedMessageId = useId();
	return (
		<div>
			<label htmlFor={seedId} className={LABEL_CLASS_NAME}>
				{generatorSeed()}
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
					placeholder={generatorSeedPlaceholder()}
					value={value}
					onChange={(event) => onChange(event.target.value)}
					aria-invalid={message ? true : undefined}
					aria-describedby={seedMessageId}
					className={joinClassNames("h-11 min-w-0 flex-1", inputClassName)}
				/>
				<button
					type="button"
					onClick={() => onChange("")}
					disabled={value === ""}
					className="inline-flex h-11 shrink-0 cursor-pointer items-center gap-1.5 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50 disabled:cursor-default disabled:opacity-60"
				>
					<Dices aria-hidden="true" className="size-4" />
					{generatorRandomSeed()}
				</button>
			</div>
			<p
				id={seedMessageId}
				className={message ? FIELD_MESSAGE_CLASS_NAME : "mt-1.5 text-xs text-slate-600"}
			>
				{message ?? generatorSeedHint()}
			</p>
		</div>
	);
}
