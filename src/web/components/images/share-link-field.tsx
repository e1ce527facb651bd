import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";
import {
	shareCopied,
	shareCopyFailed,
	shareCopyLink,
	shareYourLink,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../basics/alert-message";
import { Button } from "../basics/button";

/** A new link's address, shown this once (the server keeps only a hash), with a Copy button. */
export function ShareLinkField({ url }: { url: string }) {
	const id = useId();
	const [isCopied, setIsCopied] = useState(false);
	const [copyError, setCopyError] = useState<string | null>(null);
	async function copy() {
		try {
			await navigator.clipboard.writeText(url);
			setIsCopied(true);
		} catch {
			setCopyError(shareCopyFailed());
		}
	}
	return (
		<div className="rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200 ring-inset">
			<label htmlFor={id} className="text-sm font-medium text-emerald-900">
				{shareYourLink()}
			</label>
			<div className="mt-3 flex flex-col gap-2 sm:flex-row">
				<input
					id={id}
					readOnly
					value={url}
					onFocus={(event) => event.currentTarget.select()}
					className="block h-11 w-full min-w-0 rounded-lg border-0 bg-white px-3 font-mono text-sm text-slate-900 ring-1 ring-slate-300 ring-inset"
				/>
				<Button variant="secondary" onClick={() => void copy()}>
					{isCopied ? (
						<Check aria-hidden="true" className="size-4" />
					) : (
						<Copy aria-hidden="true" className="size-4" />
					)}
					{isCopied ? shareCopied() : shareCopyLink()}
				</Button>
			</div>
			<AlertMessage message={copyError} />
		</div>
	);
}
