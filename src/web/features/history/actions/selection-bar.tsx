import { CheckCheck, FileArchive, FolderMinus, FolderPlus, Trash2, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { MAX_BULK_GENERATIONS } from "../../../../shared/core/constants";
import {
	boardAddShort,
	boardRemoveFrom,
	historyDelete,
	historyDone,
	historyDownloadFailed,
	historyDownloadsFrame,
	historyDownloadZip,
	historySelectAllShown,
	historySelectedCount,
	historySelectionLabel,
	historySelectionLimit,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import { readErrorBody } from "../../../lib/api/read-json";
import { BULK_ARCHIVE_URL } from "../../../lib/generations/generations-requests";
import { showToast } from "../../../lib/ui/toast";

type SelectionBarProps = {
	selectedIds: readonly string[];
	shownCount: number;
	isDeleting: boolean;
	onSelectAll: () => void;
	/** Undefined where the viewer may not delete what is shown (another person's shared board). */
	onDelete?: (() => void) | undefined;
	onDone: () => void;
	/** Add to board…, where the selection may be put on boards. */
	onAddToBoard?: (() => void) | undefined;
	/** On a board its owner may change: take the selection off it. */
	onRemoveFromBoard?: (() => void) | undefined;
};

/**
 * Reads what the bulk download's hidden frame received. A ZIP is a download and never loads in
 * the frame, so anything that does load there is the server's refusal: say so in a toast.
 */
function reportFrameError(frame: HTMLIFrameElement): void {
	let text = "";
	try {
		text = frame.contentDocument?.body?.textContent ?? "";
	} catch {
		// Not readable: the frame shows another origin's page, which nothing here sends it to.
	}
	if (!text) return;
	let message = historyDownloadFailed();
	try {
		message = readErrorBody(JSON.parse(text))?.message ?? message;
	} catch {
		// Not the API's JSON: keep the general message.
	}
	void showToast("error", message);
}

/**
 * The actions on the selection, fixed to the bottom of the screen in selection mode: how many
 * are selected, Select all shown, Download (one ZIP, at most MAX_BULK_GENERATIONS), Delete, Done.
 */
export function SelectionBar({
	selectedIds,
	shownCount,
	isDeleting,
	onSelectAll,
	onDelete,
	onDone,
	onAddToBoard,
	onRemoveFromBoard,
}: SelectionBarProps) {
	const frameName = `bulk-download-${useId().replace(/[^a-zA-Z0-9]/g, "")}`;
	const frameRef = useRef<HTMLIFrameElement>(null);
	const count = selectedIds.length;
	const isTooMany = count > MAX_BULK_GENERATIONS;
	const isEmpty = count === 0;

	useEffect(() => {
		const frame = frameRef.current;
		if (!frame) return;
		const onLoad = () => reportFrameError(frame);
		frame.addEventListener("load", onLoad);
		return () => frame.removeEventListener("load", onLoad);
	}, []);

	return (
		<section
			aria-label={historySelectionLabel()}
			className="fixed inset-x-0 bottom-4 z-bar mx-auto flex w-[calc(100vw-2rem)] max-w-3xl flex-wrap items-center gap-2 rounded-2xl bg-white/95 p-3 shadow-xl ring-1 ring-slate-200 backdrop-blur"
		>
			<p role="status" className="mr-auto px-2 text-sm font-semibold text-slate-900">
				{historySelectedCount({ count })}
				{isTooMany ? (
					<span className="ml-2 font-normal text-red-700">
						{historySelectionLimit({ count: MAX_BULK_GENERATIONS })}
					</span>
				) : null}
			</p>
			<Button
				variant="ghost"
				size="sm"
				onClick={onSelectAll}
				disabled={shownCount === 0 || count >= shownCount}
			>
				<CheckCheck aria-hidden="true" className="size-4" />
				{historySelectAllShown()}
			</Button>
			{/* A plain form post, so the browser streams the ZIP to disk as a native download. Its
			    answer goes to a hidden frame: an error page then never replaces the app. */}
			<form method="post" action={BULK_ARCHIVE_URL} target={frameName}>
				{selectedIds.map((id) => (
					<input key={id} type="hidden" name="ids" value={id} />
				))}
				<button
					type="submit"
					disabled={isEmpty || isTooMany}
					className={getButtonClassName({ variant: "secondary", size: "sm" })}
				>
					<FileArchive aria-hidden="true" className="size-4" />
					{historyDownloadZip()}
				</button>
			</form>
			{onAddToBoard ? (
				<Button
					variant="secondary"
					size="sm"
					onClick={onAddToBoard}
					disabled={isEmpty || isTooMany}
				>
					<FolderPlus aria-hidden="true" className="size-4" />
					{boardAddShort()}
				</Button>
			) : null}
			{onRemoveFromBoard ? (
				<Button
					variant="secondary"
					size="sm"
					onClick={onRemoveFromBoard}
					disabled={isEmpty || isTooMany}
				>
					<FolderMinus aria-hidden="true" className="size-4" />
					{boardRemoveFrom()}
				</Button>
			) : null}
			{onDelete ? (
				<Button
					variant="danger"
					size="sm"
					onClick={onDelete}
					disabled={isEmpty || isTooMany}
					isBusy={isDeleting}
				>
					{isDeleting ? null : <Trash2 aria-hidden="true" className="size-4" />}
					{historyDelete()}
				</Button>
			) : null}
			<Button variant="secondary" size="sm" onClick={onDone}>
				<X aria-hidden="true" className="size-4" />
				{historyDone()}
			</Button>
			<iframe
				ref={frameRef}
				name={frameName}
				title={historyDownloadsFrame()}
				hidden
				tabIndex={-1}
			/>
		</section>
	);
}
