import {
	Clock,
	Crop,
	ExternalLink,
	Layers,
	Palette,
	Sparkles,
	Trash2,
	UserRound,
} from "lucide-react";
import { memo, use, useId } from "react";
import { Link } from "react-router";
import { toRatioParam } from "../../../../shared/generations/aspect-ratios";
import { batchSearch } from "../../../../shared/generations/batches";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	historyAspectRatioPrefix,
	historyBatch,
	historyBatchLabel,
	historyBatchTitle,
	historyDelete,
	historyFailed,
	historyModelPrefix,
	historyOpenPolling,
	historyOwnerPrefix,
	historySelectPrompt,
	historyStyleLabel,
	historyStyleTitle,
	historyUnknownOwner,
} from "../../../../shared/i18n/messages";
import { Button } from "../../../components/basics/button";
import { joinClassNames } from "../../../lib/ui/class-names";
import { formatTimeOfDay } from "../../../lib/ui/date-format";
import { CardMedia } from "./card-media";
import { FavoriteButton } from "./favorite-button";
import { GenerationActionsMenu, type ReuseActions } from "./generation-actions-menu";
import { DeletingIdsContext, SelectionContext } from "./generation-card-contexts";

export type GenerationCardActions = ReuseActions & {
	onPreview: (generation: Generation, imageIndex: number, trigger: HTMLElement) => void;
	onOpenPolling: (generation: Generation) => void;
	/** Undefined where the viewer may not delete it (another person's board shared with them). */
	onDelete?: ((generation: Generation, trigger: HTMLElement) => void) | undefined;
	/** Undefined where the viewer may not change its favourite (the same). */
	onToggleFavorite?: ((generation: Generation) => void) | undefined;
	/** A click on the card's checkbox; with Shift held, `isRange`. */
	onSelect: (generation: Generation, options: { isRange: boolean }) => void;
};

type GenerationCardProps = {
	generation: Generation;
	/** The admin sees whose generation each card is. */
	isOwnerShown: boolean;
	actions: GenerationCardActions;
};

// Every cell is square and the images are cropped to fill it: cards keep one height whatever the
// aspect ratio, so the grid never jumps while thumbnails arrive. The preview shows the whole image.
// Fewer than four images fill the same square: one whole, two side by side, three as one tall
// and two small.
function DeleteButton({
	generation,
	onDelete,
}: {
	generation: Generation;
	onDelete: NonNullable<GenerationCardActions["onDelete"]>;
}) {
	const deletingIds = use(DeletingIdsContext);
	const isDeleting = deletingIds.has(generation.id);
	return (
		<Button
			variant="ghost"
			size="sm"
			disabled={deletingIds.size > 0}
			isBusy={isDeleting}
			onClick={(event) => onDelete(generation, event.currentTarget)}
			className="text-red-700 hover:bg-red-50 hover:text-red-800"
		>
			{isDeleting ? null : <Trash2 aria-hidden="true" className="size-4" />}
			{historyDelete()}
		</Button>
	);
}

function SelectCheckbox({
	generation,
	isSelected,
	onSelect,
}: {
	generation: Generation;
	isSelected: boolean;
	onSelect: GenerationCardActions["onSelect"];
}) {
	return (
		<label className="absolute top-2 left-2 z-raised inline-flex size-9 cursor-pointer items-center justify-center rounded-lg bg-white/90 shadow-sm ring-1 ring-slate-200">
			<input
				type="checkbox"
				checked={isSelected}
				// React reports a checkbox's change with its click, which says whether Shift was held.
				onChange={(event) => {
					const click = event.nativeEvent;
					onSelect(generation, { isRange: click instanceof MouseEvent && click.shiftKey });
				}}
				aria-label={historySelectPrompt({ prompt: generation.prompt })}
				className="size-4 cursor-pointer accent-accent-600"
			/>
		</label>
	);
}

/**
 * One generation in the history: up to four thumbnails, the prompt, when it was made, its ratio and
 * model, and its actions. Memoised, because a long history re-renders its list on every page that arrives.
 */
export const GenerationCard = memo(function GenerationCard({
	generation,
	isOwnerShown,
	actions,
}: GenerationCardProps) {
	const promptId = useId();
	const selection = use(SelectionContext);
	const isSelected = selection.isActive && selection.selectedIds.has(generation.id);
	return (
		<article
			aria-labelledby={promptId}
			data-generation-id={generation.id}
			tabIndex={-1}
			className={joinClassNames(
				"flex flex-col overflow-hidden rounded-2xl bg-white shadow-card ring-1 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent-600",
				isSelected ? "ring-2 ring-accent-600" : "ring-slate-200/80",
			)}
		>
			{/* Overflow hidden: an aspect-ratio box would otherwise grow to fit a tall thumbnail. The
			    star and the checkbox lie over the images, so every card keeps one height. */}
			<div className="relative aspect-square overflow-hidden bg-slate-100">
				<CardMedia
					generation={generation}
					onOpen={(index, trigger) => actions.onPreview(generation, index, trigger)}
				/>
				{selection.isActive ? (
					<SelectCheckbox
						generation={generation}
						isSelected={isSelected}
						onSelect={actions.onSelect}
					/>
				) : null}
				{actions.onToggleFavorite ? (
					<div className="absolute top-2 right-2 z-raised">
						<FavoriteButton
							look="overlay"
							isFavorite={generation.is_favorite}
							onToggle={() => actions.onToggleFavorite?.(generation)}
						/>
					</div>
				) : null}
			</div>
			<div className="flex flex-1 flex-col gap-3 p-4">
				<div className="flex items-start gap-1">
					<p
						id={promptId}
						title={generation.prompt}
						// Two lines kept even for a short prompt: every card has one height (history-layout.ts).
						className="line-clamp-2 min-h-10 flex-1 text-sm/5 font-medium break-words text-slate-900"
					>
						{generation.prompt}
					</p>
					<GenerationActionsMenu generation={generation} actions={actions} />
				</div>
				<div className="flex h-5 items-center gap-x-3 overflow-hidden text-xs whitespace-nowrap text-slate-600">
					<span className="inline-flex shrink-0 items-center gap-1">
						<Clock aria-hidden="true" className="size-3.5" />
						<time dateTime={generation.created_at}>{formatTimeOfDay(generation.created_at)}</time>
					</span>
					<span className="inline-flex shrink-0 items-center gap-1">
						<Crop aria-hidden="true" className="size-3.5" />
						<span className="sr-only">{historyAspectRatioPrefix()}</span>
						{toRatioParam(generation.aspect_ratio)}
					</span>
					{/* The one part of the line that may be long: it gives way, truncated, to the rest. */}
					<span className="inline-flex min-w-0 items-center gap-1">
						<Sparkles aria-hidden="true" className="size-3.5 shrink-0" />
						<span className="sr-only">{historyModelPrefix()}</span>
						<span className="truncate" title={generation.model.label}>
							{generation.model.label}
						</span>
					</span>
					{generation.style ? (
						// The chips narrow the page they are on: the history, or a board's page.
						<Link
							to={{ search: `?style=${encodeURIComponent(generation.style.id)}` }}
							aria-label={historyStyleLabel({ name: generation.style.name })}
							title={historyStyleTitle({ name: generation.style.name })}
							className="inline-flex min-w-0 items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 font-medium text-accent-800 ring-1 ring-accent-200 ring-inset hover:underline"
						>
							<Palette aria-hidden="true" className="size-3.5 shrink-0" />
							<span className="truncate">{generation.style.name}</span>
						</Link>
					) : null}
					{generation.batchId ? (
						<Link
							to={{ search: batchSearch(generation.batchId) }}
							aria-label={historyBatchLabel()}
							title={historyBatchTitle()}
							className="inline-flex shrink-0 items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700 ring-1 ring-slate-200 ring-inset hover:underline"
						>
							<Layers aria-hidden="true" className="size-3.5 shrink-0" />
							{historyBatch()}
						</Link>
					) : null}
					{generation.status === "failed" ? (
						<span className="shrink-0 rounded-full bg-red-50 px-2 py-0.5 font-semibold text-red-700 ring-1 ring-red-200 ring-inset">
							{historyFailed()}
						</span>
					) : null}
				</div>
				{isOwnerShown ? (
					<p className="flex h-4 min-w-0 items-center gap-1.5 text-xs text-slate-700">
						<UserRound aria-hidden="true" className="size-3.5 shrink-0 text-slate-500" />
						<span className="sr-only">{historyOwnerPrefix()}</span>
						<span className="truncate" title={generation.owner_email}>
							{generation.owner_email ?? historyUnknownOwner()}
						</span>
					</p>
				) : null}
				<div className="mt-auto flex items-center justify-between gap-2 border-t border-slate-100 pt-3">
					<Button variant="secondary" size="sm" onClick={() => actions.onOpenPolling(generation)}>
						<ExternalLink aria-hidden="true" className="size-4" />
						{historyOpenPolling()}
					</Button>
					{actions.onDelete ? (
						<DeleteButton generation={generation} onDelete={actions.onDelete} />
					) : null}
				</div>
			</div>
		</article>
	);
});
