import * as Dialog from "@radix-ui/react-dialog";
import { useMutation } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { type FormEvent, type RefObject, useState } from "react";
import {
	type CreatedShare,
	offeredShareExpiries,
	type ShareExpiry,
} from "../../../shared/history/sharing";
import {
	boardShareLink,
	shareAllImages,
	shareAllowOriginals,
	shareAllowOriginalsOff,
	shareBoardDescription,
	shareButton,
	shareCancel,
	shareCreateLink,
	shareDescription,
	shareDone,
	shareExpires,
	shareExpiresDay,
	shareExpiresHour,
	shareExpiresMonth,
	shareExpiresNever,
	shareExpiresWeek,
	shareImageOnly,
	shareShowPrompt,
	shareShowPromptOff,
	shareSignedInDescription,
	shareWhat,
} from "../../../shared/i18n/messages";
import { usePublicConfig } from "../../lib/api/public-config";
import { createShare } from "../../lib/collections/share-requests";
import { AlertMessage } from "../basics/alert-message";
import { Button, getButtonClassName } from "../basics/button";
import { DialogFrame } from "../basics/dialog-frame";
import { ShareLinkField } from "./share-link-field";

const EXPIRY_LABELS: Record<ShareExpiry, () => string> = {
	"1h": shareExpiresHour,
	"1d": shareExpiresDay,
	"7d": shareExpiresWeek,
	"30d": shareExpiresMonth,
	never: shareExpiresNever,
};

/** What is shared: a generation (all its images, or the one shown), or a board. */
export type ShareSubject =
	| {
			generationId: string;
			/** The image the preview shows, which may be shared alone. */
			imageIndex: number;
			imageCount: number;
	  }
	| { boardId: string };

type ShareDialogProps = {
	subject: ShareSubject;
	isOpen: boolean;
	onClose: () => void;
	returnFocusRef: RefObject<HTMLElement | null>;
};

const CHECKBOX = "mt-0.5 size-4 accent-accent-600";

/** The expiry chosen first: a week where the server allows it, else the longest it allows. */
function pickDefaultExpiry(offered: readonly ShareExpiry[]): ShareExpiry {
	return offered.includes("7d") ? "7d" : (offered.at(-1) ?? "1h");
}

/**
 * Share: a link to the generation, the image shown or a board, its expiry (those the server
 * allows), whether originals may be downloaded and whether the prompt is shown; then the link, to
 * copy.
 */
export function ShareDialog({ subject, isOpen, onClose, returnFocusRef }: ShareDialogProps) {
	const config = usePublicConfig().data;
	const offered = offeredShareExpiries(config?.shareMaxDays ?? null);
	const isForSignedIn = config?.sharing === "signed-in";
	const isBoard = "boardId" in subject;
	const imageIndex = isBoard ? 0 : subject.imageIndex;
	const imageCount = isBoard ? 0 : subject.imageCount;
	const [isImageOnly, setIsImageOnly] = useState(false);
	const [chosenExpiry, setExpires] = useState<ShareExpiry | null>(null);
	const expires =
		chosenExpiry !== null && offered.includes(chosenExpiry)
			? chosenExpiry
			: pickDefaultExpiry(offered);
	const [originals, setOriginals] = useState(false);
	const [showPrompt, setShowPrompt] = useState(true);
	const [created, setCreated] = useState<CreatedShare | null>(null);
	const create = useMutation({ mutationFn: createShare, onSuccess: setCreated });

	function submit(event: FormEvent) {
		event.preventDefault();
		create.mutate({
			target: isBoard
				? { boardId: subject.boardId }
				: { generationId: subject.generationId, ...(isImageOnly ? { imageIndex } : {}) },
			expires,
			originals,
			showPrompt,
		});
	}

	return (
		<DialogFrame
			kind="dialog"
			isOpen={isOpen}
			onOpenChange={(open) => (open ? null : onClose())}
			returnFocusRef={returnFocusRef}
			title={isBoard ? boardShareLink() : shareButton()}
			description={
				isForSignedIn
					? shareSignedInDescription()
					: isBoard
						? shareBoardDescription()
						: shareDescription()
			}
		>
			{created ? (
				<div className="mt-4 space-y-4">
					<ShareLinkField url={created.url} />
					<Dialog.Close className={getButtonClassName({ variant: "secondary" })}>
						{shareDone()}
					</Dialog.Close>
				</div>
			) : (
				<form
					onSubmit={submit}
					className="mt-4 space-y-4"
					aria-label={isBoard ? boardShareLink() : shareButton()}
				>
					{imageCount > 1 ? (
						<fieldset>
							<legend className="mb-1.5 text-sm font-medium text-slate-800">{shareWhat()}</legend>
							<label className="flex items-center gap-2 text-sm text-slate-800">
								<input
									type="radio"
									name="share-what"
									checked={!isImageOnly}
									onChange={() => setIsImageOnly(false)}
									className="size-4 accent-accent-600"
								/>
								{shareAllImages({ count: imageCount })}
							</label>
							<label className="mt-1 flex items-center gap-2 text-sm text-slate-800">
								<input
									type="radio"
									name="share-what"
									checked={isImageOnly}
									onChange={() => setIsImageOnly(true)}
									className="size-4 accent-accent-600"
								/>
								{shareImageOnly({ index: imageIndex + 1 })}
							</label>
						</fieldset>
					) : null}
					<div>
						<label
							htmlFor="share-expires"
							className="mb-1.5 block text-sm font-medium text-slate-800"
						>
							{shareExpires()}
						</label>
						<select
							id="share-expires"
							value={expires}
							onChange={(event) =>
								setExpires(offered.find((value) => value === event.target.value) ?? null)
							}
							className="block h-11 rounded-lg border-0 bg-white px-3 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset"
						>
							{offered.map((value) => (
								<option key={value} value={value}>
									{EXPIRY_LABELS[value]()}
								</option>
							))}
						</select>
					</div>
					<label className="flex items-start gap-2 text-sm text-slate-800">
						<input
							type="checkbox"
							checked={showPrompt}
							onChange={(event) => setShowPrompt(event.target.checked)}
							className={CHECKBOX}
						/>
						<span>
							{shareShowPrompt()}
							<span className="block text-slate-600">{shareShowPromptOff()}</span>
						</span>
					</label>
					<label className="flex items-start gap-2 text-sm text-slate-800">
						<input
							type="checkbox"
							checked={originals}
							onChange={(event) => setOriginals(event.target.checked)}
							className={CHECKBOX}
						/>
						<span>
							{shareAllowOriginals()}
							<span className="block text-slate-600">{shareAllowOriginalsOff()}</span>
						</span>
					</label>
					<AlertMessage message={create.error?.message ?? null} />
					<div className="flex flex-wrap justify-end gap-2">
						<Dialog.Close className={getButtonClassName({ variant: "secondary" })}>
							{shareCancel()}
						</Dialog.Close>
						<Button type="submit" isBusy={create.isPending}>
							<Link2 aria-hidden="true" className="size-4" />
							{shareCreateLink()}
						</Button>
					</div>
				</form>
			)}
		</DialogFrame>
	);
}
