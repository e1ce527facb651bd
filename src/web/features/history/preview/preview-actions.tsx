// The actions under the history's preview (image-preview-dialog.tsx): Favourite, the downloads,
// Share, Use prompt, Use settings, Rerun, Copy prompt, the polling URL, the boards and Delete, each
// where the history offers it.
import {
	Copy,
	Download,
	ExternalLink,
	FileArchive,
	FolderMinus,
	FolderPlus,
	Repeat2,
	Share2,
	SlidersHorizontal,
	SquarePen,
	Trash2,
} from "lucide-react";
import type { RefObject } from "react";
import { Link } from "react-router";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	boardAddShort,
	boardRemoveFrom,
	historyCopyPrompt,
	historyDelete,
	historyDownloadAllZip,
	historyDownloadImage,
	historyOpenPolling,
	historyRerun,
	historyUsePrompt,
	historyUseSettings,
	shareButton,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import {
	buildArchiveUrl,
	buildImageDownloadUrl,
} from "../../../lib/generations/generations-requests";
import { FavoriteButton } from "../cards/favorite-button";
import { hasImages } from "../cards/generation-actions-menu";
import type { GenerationCardActions } from "../cards/generation-card";
import { buildUsePromptLink, buildUseSettingsLink } from "../cards/generation-reuse";

const SMALL_SECONDARY = getButtonClassName({ variant: "secondary", size: "sm" });

type PreviewActionsProps = {
	generation: Generation;
	imageIndex: number;
	actions: Omit<GenerationCardActions, "onPreview" | "onSelect">;
	/** Share's button, where sharing is on (null: no Share), focused again when its dialog closes. */
	shareButtonRef: RefObject<HTMLButtonElement | null> | null;
	onShare: () => void;
};

export function PreviewActions({
	generation,
	imageIndex,
	actions,
	shareButtonRef,
	onShare,
}: PreviewActionsProps) {
	return (
		<div className="mt-auto flex flex-wrap gap-2 border-t border-slate-100 pt-4">
			{actions.onToggleFavorite ? (
				<FavoriteButton
					look="labelled"
					isFavorite={generation.is_favorite}
					onToggle={() => actions.onToggleFavorite?.(generation)}
				/>
			) : null}
			<a
				href={buildImageDownloadUrl(generation.id, imageIndex)}
				download
				className={SMALL_SECONDARY}
			>
				<Download aria-hidden="true" className="size-4" />
				{historyDownloadImage()}
			</a>
			<a href={buildArchiveUrl(generation.id)} download className={SMALL_SECONDARY}>
				<FileArchive aria-hidden="true" className="size-4" />
				{historyDownloadAllZip()}
			</a>
			{hasImages(generation) && shareButtonRef ? (
				<Button ref={shareButtonRef} variant="secondary" size="sm" onClick={onShare}>
					<Share2 aria-hidden="true" className="size-4" />
					{shareButton()}
				</Button>
			) : null}
			<Link
				to={buildUsePromptLink(generation)}
				onClick={() => actions.onReuse(generation)}
				className={SMALL_SECONDARY}
			>
				<SquarePen aria-hidden="true" className="size-4" />
				{historyUsePrompt()}
			</Link>
			<Link
				to={buildUseSettingsLink(generation)}
				onClick={() => actions.onReuse(generation)}
				className={SMALL_SECONDARY}
			>
				<SlidersHorizontal aria-hidden="true" className="size-4" />
				{historyUseSettings()}
			</Link>
			<Button variant="secondary" size="sm" onClick={() => actions.onRerun(generation)}>
				<Repeat2 aria-hidden="true" className="size-4" />
				{historyRerun()}
			</Button>
			<Button variant="secondary" size="sm" onClick={() => actions.onCopyPrompt(generation)}>
				<Copy aria-hidden="true" className="size-4" />
				{historyCopyPrompt()}
			</Button>
			<Button variant="secondary" size="sm" onClick={() => actions.onOpenPolling(generation)}>
				<ExternalLink aria-hidden="true" className="size-4" />
				{historyOpenPolling()}
			</Button>
			{actions.onChooseBoards ? (
				<Button variant="secondary" size="sm" onClick={() => actions.onChooseBoards?.(generation)}>
					<FolderPlus aria-hidden="true" className="size-4" />
					{boardAddShort()}
				</Button>
			) : null}
			{actions.onRemoveFromBoard ? (
				<Button
					variant="secondary"
					size="sm"
					onClick={() => actions.onRemoveFromBoard?.(generation)}
				>
					<FolderMinus aria-hidden="true" className="size-4" />
					{boardRemoveFrom()}
				</Button>
			) : null}
			{actions.onDelete ? (
				<Button
					variant="ghost"
					size="sm"
					onClick={(event) => actions.onDelete?.(generation, event.currentTarget)}
					className="text-red-700 hover:bg-red-50 hover:text-red-800"
				>
					<Trash2 aria-hidden="true" className="size-4" />
					{historyDelete()}
				</Button>
			) : null}
		</div>
	);
}
