import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import {
	Brush,
	Copy,
	EllipsisVertical,
	Expand,
	FileArchive,
	FolderMinus,
	FolderPlus,
	Maximize2,
	Repeat2,
	Share2,
	Shuffle,
	SlidersHorizontal,
	SquarePen,
	WandSparkles,
} from "lucide-react";
import { Fragment, type ReactNode, useId } from "react";
import { Link } from "react-router";
import { GALLERY_CARD_IMAGES } from "../../../../shared/core/constants";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	boardAddMenuItem,
	boardRemoveFrom,
	editorTitleExpand,
	editorTitleRegion,
	historyCopyPrompt,
	historyDownloadAllZip,
	historyImageNumber,
	historyMoreActions,
	historyRerun,
	historyUsePrompt,
	historyUseSettings,
	imageUpscaleResamplesShort,
	shareMenuItem,
} from "../../../../shared/i18n/messages";
import { ACTION_LABELS } from "../../../../shared/image-input/image-input";
import { describeUpscale, hasImageActions } from "../../../components/images/image-action-buttons";
import { buildArchiveUrl } from "../../../lib/generations/generations-requests";
import {
	buildEditLink,
	buildEditorLink,
	type EditorTool,
	type ImmediateAction,
} from "../../../lib/generations/image-actions";
import { useImageActionChoices } from "../../../lib/generations/use-image-action-choices";
import { buildUsePromptLink, buildUseSettingsLink } from "./generation-reuse";

export type ReuseActions = {
	onRerun: (generation: Generation) => void;
	/** Vary or Upscale of one of the generation's images, started at once. */
	onImageAction: (
		generation: Generation,
		action: ImmediateAction,
		imageIndex: number,
		factor?: number,
	) => void;
	/** A Use prompt or Use settings link was followed: the page says so when the model is gone. */
	onReuse: (generation: Generation) => void;
	onCopyPrompt: (generation: Generation) => void;
	/** Add to board…: where it may be put on boards (its owner's history or board). */
	onChooseBoards?: ((generation: Generation) => void) | undefined;
	/** On a board's page its owner may change: take it off the board. */
	onRemoveFromBoard?: ((generation: Generation) => void) | undefined;
	/** Share…, for a finished generation of the viewer's own, where the server has shared links. */
	onShare?: ((generation: Generation) => void) | undefined;
	/** Whether the viewer may share this generation: their own (the administrator sees others'). */
	canShare?: ((generation: Generation) => boolean) | undefined;
};

const ITEM_CLASS_NAME =
	"flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

function MenuItem({
	icon,
	children,
	onSelect,
}: {
	icon: ReactNode;
	children: ReactNode;
	onSelect: () => void;
}) {
	return (
		<DropdownMenu.Item onSelect={onSelect} className={ITEM_CLASS_NAME}>
			{icon}
			{children}
		</DropdownMenu.Item>
	);
}

// Above the sticky header (z-menu), and never taller than the window's room on its side: a menu
// opened near the top or bottom scrolls rather than running out of the window. The height is a
// style, not a utility: this lazy chunk carries it, not the first page's CSS.
const MENU_CLASS_NAME =
	"z-menu w-56 overflow-y-auto rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 focus:outline-none";
const MENU_STYLE = { maxHeight: "var(--radix-dropdown-menu-content-available-height)" };

/** The props that describe a menu item by a note shown under its label (`describedBy` its id). */
type ItemDescription = { "aria-describedby"?: string };

/**
 * One action on an image: an item for a generation of one image; for several, a submenu naming
 * each image ("Image 1", ...). `renderItem` draws the item that acts on one image. A `note` shows
 * under the label and describes the item (its name stays the label).
 */
function ImageActionItem({
	icon,
	label,
	note,
	imageCount,
	renderItem,
}: {
	icon: ReactNode;
	label: string;
	note?: string | undefined;
	imageCount: number;
	renderItem: (imageIndex: number, content: ReactNode, description: ItemDescription) => ReactNode;
}) {
	const noteId = useId();
	const description: ItemDescription = note ? { "aria-describedby": noteId } : {};
	const content = (
		<>
			{icon}
			{note ? (
				<span className="min-w-0">
					{label}
					<span id={noteId} aria-hidden="true" className="block text-xs text-slate-500">
						{note}
					</span>
				</span>
			) : (
				label
			)}
		</>
	);
	if (imageCount === 1) return renderItem(0, content, description);
	return (
		<DropdownMenu.Sub>
			<DropdownMenu.SubTrigger className={ITEM_CLASS_NAME} {...description}>
				{content}
			</DropdownMenu.SubTrigger>
			<DropdownMenu.Portal>
				<DropdownMenu.SubContent sideOffset={4} className={MENU_CLASS_NAME} style={MENU_STYLE}>
					{Array.from({ length: imageCount }, (_, imageIndex) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: one item per image, in order.
						<Fragment key={imageIndex}>
							{renderItem(imageIndex, historyImageNumber({ index: imageIndex + 1 }), {})}
						</Fragment>
					))}
				</DropdownMenu.SubContent>
			</DropdownMenu.Portal>
		</DropdownMenu.Sub>
	);
}

/**
 * Vary (subtle), Vary (strong), Upscale and Edit of the generation's images, as its model offers
 * them; rendered when the menu opens, so the models are read only then.
 */
function ImageActionItems({
	generation,
	actions,
}: {
	generation: Generation;
	actions: ReuseActions;
}) {
	const choices = useImageActionChoices(generation.model.id);
	const imageCount = Math.min(generation.images.length, GALLERY_CARD_IMAGES);
	if (!hasImages(generation) || !hasImageActions(choices)) return null;
	const startItem =
		(action: ImmediateAction, factor?: number) =>
		(imageIndex: number, content: ReactNode, description: ItemDescription = {}) => (
			<DropdownMenu.Item
				onSelect={() => actions.onImageAction(generation, action, imageIndex, factor)}
				className={ITEM_CLASS_NAME}
				{...description}
			>
				{content}
			</DropdownMenu.Item>
		);
	const editorItem = (tool: EditorTool) => (imageIndex: number, content: ReactNode) => (
		<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
			<Link to={buildEditorLink({ generationId: generation.id, imageIndex }, tool)}>{content}</Link>
		</DropdownMenu.Item>
	);
	return (
		<>
			{choices.canVary ? (
				<>
					<ImageActionItem
						icon={<Shuffle aria-hidden="true" className="size-4" />}
						label={ACTION_LABELS["vary-subtle"]()}
						imageCount={imageCount}
						renderItem={startItem("vary-subtle")}
					/>
					<ImageActionItem
						icon={<WandSparkles aria-hidden="true" className="size-4" />}
						label={ACTION_LABELS["vary-strong"]()}
						imageCount={imageCount}
						renderItem={startItem("vary-strong")}
					/>
				</>
			) : null}
			{choices.upscaleFactors.map((factor) => (
				<ImageActionItem
					key={factor}
					icon={<Maximize2 aria-hidden="true" className="size-4" />}
					label={describeUpscale(factor, choices.upscaleFactors)}
					note={
						choices.resampledFactors.includes(factor) ? imageUpscaleResamplesShort() : undefined
					}
					imageCount={imageCount}
					renderItem={startItem("upscale", factor)}
				/>
			))}
			{choices.canEdit ? (
				<ImageActionItem
					icon={<SquarePen aria-hidden="true" className="size-4" />}
					label={ACTION_LABELS.edit()}
					imageCount={imageCount}
					renderItem={(imageIndex, content) => (
						<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
							<Link to={buildEditLink({ ...generation, imageIndex })}>{content}</Link>
						</DropdownMenu.Item>
					)}
				/>
			) : null}
			{choices.canEditRegion ? (
				<ImageActionItem
					icon={<Brush aria-hidden="true" className="size-4" />}
					label={editorTitleRegion()}
					imageCount={imageCount}
					renderItem={editorItem("region")}
				/>
			) : null}
			{choices.canExpand ? (
				<ImageActionItem
					icon={<Expand aria-hidden="true" className="size-4" />}
					label={editorTitleExpand()}
					imageCount={imageCount}
					renderItem={editorItem("expand")}
				/>
			) : null}
			<DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
		</>
	);
}

/** True when the generation has images to download. */
export function hasImages(generation: Generation): boolean {
	return generation.status === "completed" && generation.images.length > 0;
}

/**
 * A card's further actions, behind one button so the card keeps its height: Vary, Upscale and Edit
 * of one of its images (where its model offers them), download the whole
 * generation as a ZIP, open the generator with its prompt and settings (with or without its seed),
 * run it again with a new seed, copy the prompt.
 */
export function GenerationActionsMenu({
	generation,
	actions,
}: {
	generation: Generation;
	actions: ReuseActions;
}) {
	return (
		<DropdownMenu.Root modal={false}>
			<DropdownMenu.Trigger
				aria-label={historyMoreActions()}
				data-card-menu
				className="-mt-1 -mr-2 inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 data-[state=open]:bg-slate-100"
			>
				<EllipsisVertical aria-hidden="true" className="size-4" />
			</DropdownMenu.Trigger>
			{/* Portalled: the card's list item contains its paint (content-visibility), which would clip it. */}
			<DropdownMenu.Portal>
				<DropdownMenu.Content
					align="end"
					sideOffset={4}
					className={MENU_CLASS_NAME}
					style={MENU_STYLE}
				>
					<ImageActionItems generation={generation} actions={actions} />
					{hasImages(generation) ? (
						<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
							<a href={buildArchiveUrl(generation.id)} download>
								<FileArchive aria-hidden="true" className="size-4" />
								{historyDownloadAllZip()}
							</a>
						</DropdownMenu.Item>
					) : null}
					<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
						<Link to={buildUsePromptLink(generation)} onClick={() => actions.onReuse(generation)}>
							<SquarePen aria-hidden="true" className="size-4" />
							{historyUsePrompt()}
						</Link>
					</DropdownMenu.Item>
					<DropdownMenu.Item asChild className={ITEM_CLASS_NAME}>
						<Link to={buildUseSettingsLink(generation)} onClick={() => actions.onReuse(generation)}>
							<SlidersHorizontal aria-hidden="true" className="size-4" />
							{historyUseSettings()}
						</Link>
					</DropdownMenu.Item>
					<MenuItem
						icon={<Repeat2 aria-hidden="true" className="size-4" />}
						onSelect={() => actions.onRerun(generation)}
					>
						{historyRerun()}
					</MenuItem>
					<MenuItem
						icon={<Copy aria-hidden="true" className="size-4" />}
						onSelect={() => actions.onCopyPrompt(generation)}
					>
						{historyCopyPrompt()}
					</MenuItem>
					{actions.onShare && hasImages(generation) && actions.canShare?.(generation) !== false ? (
						<MenuItem
							icon={<Share2 aria-hidden="true" className="size-4" />}
							onSelect={() => actions.onShare?.(generation)}
						>
							{shareMenuItem()}
						</MenuItem>
					) : null}
					{actions.onChooseBoards ? (
						<MenuItem
							icon={<FolderPlus aria-hidden="true" className="size-4" />}
							onSelect={() => actions.onChooseBoards?.(generation)}
						>
							{boardAddMenuItem()}
						</MenuItem>
					) : null}
					{actions.onRemoveFromBoard ? (
						<MenuItem
							icon={<FolderMinus aria-hidden="true" className="size-4" />}
							onSelect={() => actions.onRemoveFromBoard?.(generation)}
						>
							{boardRemoveFrom()}
						</MenuItem>
					) : null}
				</DropdownMenu.Content>
			</DropdownMenu.Portal>
		</DropdownMenu.Root>
	);
}
