import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from "react";
import { joinClassNames } from "../../lib/ui/class-names";

const INPUT_CLASS_NAME =
	"block h-11 w-full rounded-lg border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset transition-shadow placeholder:text-slate-500 focus:ring-2 focus:ring-accent-600 focus:outline-none sm:text-sm";

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
	label: string;
	hint?: string;
	/** Content drawn inside the input's right edge, such as a show-password toggle. */
	trailing?: ReactNode;
	ref?: Ref<HTMLInputElement>;
};

export function TextField({ label, hint, trailing, className, ...inputProps }: TextFieldProps) {
	const inputId = useId();
	const hintId = useId();
	return (
		<div className={className}>
			<label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
				{label}
			</label>
			<div className="relative">
				<input
					id={inputId}
					aria-describedby={hint ? hintId : undefined}
					className={joinClassNames(INPUT_CLASS_NAME, trailing ? "pr-11" : undefined)}
					{...inputProps}
				/>
				{trailing ? (
					<div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div>
				) : null}
			</div>
			{hint ? (
				<p id={hintId} className="mt-1.5 text-xs text-slate-600">
					{hint}
				</p>
			) : null}
		</div>
	);
}
