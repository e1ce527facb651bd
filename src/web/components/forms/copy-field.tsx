import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";
import { AlertMessage } from "../basics/alert-message";
import { Button } from "../basics/button";

type CopyFieldProps = {
	/** What the value is; read out only, by a screen reader, when `isLabelHidden`. */
	label: string;
	isLabelHidden?: boolean;
	value: string;
	copyLabel: string;
	copiedLabel: string;
	/** Said under the field when the browser refuses the clipboard. */
	copyFailedMessage: string;
};

/**
 * A value shown once (a new share link, a new API token: the server keeps only a hash) in a
 * read-only field that selects itself when focused, with a Copy button that says when it copied.
 */
export function CopyField({
	label,
	isLabelHidden = false,
	value,
	copyLabel,
	copiedLabel,
	copyFailedMessage,
}: CopyFieldProps) {
	const id = useId();
	const [isCopied, setIsCopied] = useState(false);
	const [copyError, setCopyError] = useState<string | null>(null);
	async function copy() {
		try {
			await navigator.clipboard.writeText(value);
			setIsCopied(true);
		} catch {
			setCopyError(copyFailedMessage);
		}
	}
	return (
		<>
			<label
				htmlFor={id}
				className={isLabelHidden ? "sr-only" : "text-sm font-medium text-emerald-900"}
			>
				{label}
			</label>
			<div className="mt-3 flex flex-col gap-2 sm:flex-row">
				<input
					id={id}
					readOnly
					value={value}
					onFocus={(event) => event.currentTarget.select()}
					className="block h-11 w-full min-w-0 rounded-lg border-0 bg-white px-3 font-mono text-sm text-slate-900 ring-1 ring-slate-300 ring-inset"
				/>
				<Button variant="secondary" onClick={() => void copy()}>
					{isCopied ? (
						<Check aria-hidden="true" className="size-4" />
					) : (
						<Copy aria-hidden="true" className="size-4" />
					)}
					{isCopied ? copiedLabel : copyLabel}
				</Button>
			</div>
			<AlertMessage message={copyError} />
		</>
	);
}
