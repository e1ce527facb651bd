import {
	shareCopied,
	shareCopyFailed,
	shareCopyLink,
	shareYourLink,
} from "../../../shared/i18n/messages";
import { CopyField } from "../forms/copy-field";

/** A new link's address, shown this once (the server keeps only a hash), with a Copy button. */
export function ShareLinkField({ url }: { url: string }) {
	return (
		<div className="rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200 ring-inset">
			<CopyField
				label={shareYourLink()}
				value={url}
				copyLabel={shareCopyLink()}
				copiedLabel={shareCopied()}
				copyFailedMessage={shareCopyFailed()}
			/>
		</div>
	);
}
