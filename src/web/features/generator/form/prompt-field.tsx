import { X } from "lucide-react";
import { type Ref, useId } from "react";
import { MAX_PROMPT_LENGTH } from "../../../../shared/core/constants";
import {
	generatorCharacters,
	generatorClear,
	generatorClearPrompt,
	generatorPrompt,
	generatorPromptPlaceholder,
} from "../../../../shared/i18n/messages";
import { sanitizePrompt } from "../../../../shared/prompts/prompt";
import { joinClassNames } from "../../../lib/ui/class-names";

type PromptFieldProps = {
	value: string;
	onChange: (value: string) => void;
	/** A rule the prompt breaks, shown under the field; null when there is nothing to say. */
	message: string | null;
	ref?: Ref<HTMLTextAreaElement>;
};

/** The prompt box: 6 rows, capped at 500 characters, with a live counter and a clear button. */
export function PromptField({ value, onChange, message, ref }: PromptFieldProps) {
	const fieldId = useId();
	const counterId = useId();
	const messageId = useId();

	return (
		<div>
			<div className="mb-1.5 flex items-end justify-between gap-2">
				<label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
					{generatorPrompt()}
				</label>
				<button
					type="button"
					aria-label={generatorClearPrompt()}
					onClick={() => {
						onChange("");
						document.getElementById(fieldId)?.focus();
					}}
					disabled={value.length === 0}
					className="-my-1 inline-flex cursor-pointer items-center gap-1 rounded-md px-1.5 py-1 text-xs font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 disabled:cursor-default disabled:opacity-0"
				>
					<X aria-hidden="true" className="size-3.5" />
					{generatorClear()}
				</button>
			</div>
			<textarea
				ref={ref}
				id={fieldId}
				name="prompt"
				rows={6}
				maxLength={MAX_PROMPT_LENGTH}
				placeholder={generatorPromptPlaceholder()}
				value={value}
				// Angle brackets are stripped and the text cut to 500 as it is typed or pasted.
				onChange={(event) => onChange(sanitizePrompt(event.target.value))}
				aria-invalid={message ? true : undefined}
				aria-describedby={message ? `${messageId} ${counterId}` : counterId}
				spellCheck
				className={joinClassNames(
					"block w-full resize-y rounded-xl border-0 bg-white px-3.5 py-3 text-base leading-relaxed text-slate-900 shadow-sm ring-1 ring-inset transition-shadow placeholder:text-slate-500 focus:ring-2 focus:outline-none sm:text-sm sm:leading-relaxed",
					message ? "ring-red-400 focus:ring-red-600" : "ring-slate-300 focus:ring-accent-600",
				)}
			/>
			<div className="mt-1.5 flex items-start justify-between gap-3 text-xs">
				<p id={messageId} className="min-h-4 font-medium text-red-700">
					{message}
				</p>
				<p
					id={counterId}
					className={joinClassNames(
						"shrink-0 tabular-nums",
						value.length >= MAX_PROMPT_LENGTH ? "font-semibold text-amber-700" : "text-slate-600",
					)}
				>
					<span>
						{value.length}/{MAX_PROMPT_LENGTH}
					</span>
					<span className="sr-only"> {generatorCharacters()}</span>
				</p>
			</div>
		</div>
	);
}
