// The Images and Quality controls: a radio group drawn as segments.
import { useId } from "react";
import { joinClassNames } from "../../lib/ui/class-names";
import { FIELD_MESSAGE_CLASS_NAME, LABEL_CLASS_NAME } from "./field-classes";

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
export function Segments<Value extends string | number>({
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
