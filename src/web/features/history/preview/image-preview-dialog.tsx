import * as Dialog from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight, X } from "lucide-react";
import { type KeyboardEvent, lazy, type RefObject, Suspense, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { GALLERY_CARD_IMAGES } from "../../../../shared/core/constants";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	generatorImageName,
	historyClose,
	historyImage,
	historyImageAlt,
	historyImageOf,
	historyNextImage,
	historyNextImageTitle,
	historyPreviousImage,
	historyPreviousImageTitle,
	historyShowImage,
	imageBefore,
	imageBeforeAlt,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import { FamilyPanel } from "../../../components/images/family-panel";
import { ImageActionButtons } from "../../../components/images/image-action-buttons";
import { Thumbnail } from "../../../components/images/thumbnail";
import { usePublicConfig } from "../../../lib/api/public-config";
import { buildEditLink } from "../../../lib/generations/image-actions";
import { buildImageSrcSet, readDisplaySource } from "../../../lib/generations/image-sources";
import { useImageActionChoices } from "../../../lib/generations/use-image-action-choices";
import { hasImages } from "../cards/generation-actions-menu";
import type { GenerationCardActions } from "../cards/generation-card";
import { PreviewActions } from "./preview-actions";
import { PreviewDetails } from "./preview-details";

export type PreviewTarget = { generation: Generation; imageIndex: number };

// Loaded when Share is pressed, not with the history.
const ShareDialog = lazy(async () => ({
	default: (await import("../../../components/images/share-dialog")).ShareDialog,
}));

/** Which way the arrow keys and the Previous and Next buttons move through the history. */
export type PreviewStep = -1 | 1;

type ImagePreviewDialogProps = {
	target: PreviewTarget | null;
	isOwnerShown: boolean;
	/** The generation's model is no longer offered: the preview says so beside its label. */
	isModelGone: boolean;
	onSelectImage: (imageIndex: number) => void;
	/** Shows a generation of the family ("Made from", "Made from this") in the preview. */
	onShowGeneration: (generation: Generation, imageIndex: number) => void;
	/** Moves one image back or on, into the generation before or after at either end. */
	onStep: (step: PreviewStep) => void;
	canStep: { previous: boolean; next: boolean };
	actions: Omit<GenerationCardActions, "onPreview" | "onSelect">;
	onClose: () => void;
	/** Where focus goes back to when the preview closes: the thumbnail that opened it. */
	returnFocusRef: RefObject<HTMLElement | null>;
};

const STEP_BUTTON_CLASS_NAME =
	"absolute top-1/2 z-raised inline-flex size-10 -translate-y-1/2 cursor-pointer items-center justify-center rounded-full bg-white/90 text-slate-900 shadow ring-1 ring-slate-200 transition hover:bg-white disabled:cursor-default disabled:opacity-0";

const SMALL_SECONDARY = getButtonClassName({ variant: "secondary", size: "sm" });

/**
 * The full-size preview of one image of a generation, with its prompt, date and time, aspect ratio,
 * model and settings (the seed, and the negative prompt and quality where used), and the card's
 * actions. Left and Right arrows (and the buttons on the image) move through
 * the images and on to the generation before or after. Escape, the Close button and a click
 * outside close it; the page does not scroll meanwhile.
 */
export function ImagePreviewDialog({
	target,
	isOwnerShown,
	isModelGone,
	onSelectImage,
	onShowGeneration,
	onStep,
	canStep,
	actions,
	onClose,
	returnFocusRef,
}: ImagePreviewDialogProps) {
	const generation = target?.generation;
	const images = generation?.images.slice(0, GALLERY_CARD_IMAGES) ?? [];
	const imageIndex = Math.min(target?.imageIndex ?? 0, Math.max(0, images.length - 1));
	const image = images[imageIndex];
	const actionChoices = useImageActionChoices(generation?.model.id);
	const navigate = useNavigate();
	const [isSharing, setIsSharing] = useState(false);
	// SHARING=off: no Share anywhere.
	const isSharingOn = usePublicConfig().data?.sharing !== "off";
	const shareButtonRef = useRef<HTMLButtonElement>(null);
	// Before/after of an Edit region or Expand: the image it started from, in place of its result.
	const beforeUrl = generation?.region?.sourceUrl ?? null;
	const [beforeShownFor, setBeforeShownFor] = useState<string | null>(null);
	const isBeforeShown = beforeUrl !== null && beforeShownFor === `${generation?.id}:${imageIndex}`;

	const onKeyDown = (event: KeyboardEvent) => {
		if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
		const step = event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : 0;
		if (step === 0) return;
		event.preventDefault();
		if (step === -1 ? canStep.previous : canStep.next) onStep(step);
	};

	return (
		<Dialog.Root open={target !== null} onOpenChange={(isOpen) => (isOpen ? null : onClose())}>
			<Dialog.Portal>
				<Dialog.Overlay className="fixed inset-0 z-dialog bg-slate-950/80" />
				<Dialog.Content
					onKeyDown={onKeyDown}
					onCloseAutoFocus={(event) => {
						const target = returnFocusRef.current;
						if (target?.isConnected) {
							event.preventDefault();
							target.focus({ preventScroll: true });
						}
					}}
					className="fixed top-1/2 left-1/2 z-dialog flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-6xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl bg-white shadow-2xl focus:outline-none md:flex-row"
				>
					<div className="relative flex min-h-0 flex-1 items-center justify-center bg-slate-950 p-2 sm:p-4">
						{image && isBeforeShown && beforeUrl ? (
							<img
								src={beforeUrl}
								alt={imageBeforeAlt({ prompt: generation?.prompt ?? "" })}
								className="h-auto max-h-[55dvh] w-auto max-w-full rounded-lg bg-slate-900 object-contain md:max-h-[calc(100dvh-4rem)]"
							/>
						) : image ? (
							<img
								key={image.url}
								src={readDisplaySource(image).url}
								srcSet={buildImageSrcSet(image)}
								sizes="(min-width: 48rem) calc(100vw - 20rem), 100vw"
								width={image.width}
								height={image.height}
								alt={historyImageAlt({
									prompt: generation?.prompt ?? "",
									index: imageIndex + 1,
									count: images.length,
								})}
								// The thumbnail, already in the cache, stands in while the full image loads.
								style={{ backgroundImage: `url("${image.thumbnailUrl}")` }}
								className="h-auto max-h-[55dvh] w-auto max-w-full rounded-lg bg-slate-900 bg-cover bg-center object-contain md:max-h-[calc(100dvh-4rem)]"
							/>
						) : null}
						<button
							type="button"
							aria-label={historyPreviousImage()}
							title={historyPreviousImageTitle()}
							disabled={!canStep.previous}
							onClick={() => onStep(-1)}
							className={`${STEP_BUTTON_CLASS_NAME} left-3`}
						>
							<ChevronLeft aria-hidden="true" className="size-5" />
						</button>
						<button
							type="button"
							aria-label={historyNextImage()}
							title={historyNextImageTitle()}
							disabled={!canStep.next}
							onClick={() => onStep(1)}
							className={`${STEP_BUTTON_CLASS_NAME} right-3`}
						>
							<ChevronRight aria-hidden="true" className="size-5" />
						</button>
					</div>
					<div className="flex w-full shrink-0 flex-col gap-5 overflow-y-auto p-5 md:w-80">
						<div className="flex items-start justify-between gap-3">
							<Dialog.Title className="text-base font-semibold text-slate-900">
								{images.length > 1
									? historyImageOf({ index: imageIndex + 1, count: images.length })
									: historyImage()}
							</Dialog.Title>
							<Dialog.Close className={SMALL_SECONDARY}>
								<X aria-hidden="true" className="size-4" />
								{historyClose()}
							</Dialog.Close>
						</div>
						{generation ? (
							<PreviewDetails
								generation={generation}
								isOwnerShown={isOwnerShown}
								isModelGone={isModelGone}
							/>
						) : null}
						{images.length > 1 ? (
							<div className="grid grid-cols-4 gap-2">
								{images.map((thumbnail, index) => (
									<button
										key={thumbnail.thumbnailUrl}
										type="button"
										aria-label={historyShowImage({ index: index + 1, count: images.length })}
										aria-pressed={index === imageIndex}
										onClick={() => onSelectImage(index)}
										className="aspect-square cursor-pointer overflow-hidden rounded-lg bg-slate-100 opacity-70 ring-accent-600 transition hover:opacity-100 aria-pressed:opacity-100 aria-pressed:ring-2"
									>
										<Thumbnail image={thumbnail} className="size-full object-cover" />
									</button>
								))}
							</div>
						) : null}
						{generation && beforeUrl && hasImages(generation) ? (
							<Button
								variant="secondary"
								size="sm"
								aria-pressed={isBeforeShown}
								onClick={() =>
									setBeforeShownFor(isBeforeShown ? null : `${generation.id}:${imageIndex}`)
								}
							>
								{imageBefore()}
							</Button>
						) : null}
						{generation && hasImages(generation) ? (
							<ImageActionButtons
								choices={actionChoices}
								imageName={generatorImageName({ position: imageIndex + 1, total: images.length })}
								onStart={(action, factor) =>
									actions.onImageAction(generation, action, imageIndex, factor)
								}
								onEdit={() => void navigate(buildEditLink({ ...generation, imageIndex }))}
								editorSource={{ generationId: generation.id, imageIndex }}
							/>
						) : null}
						{generation ? (
							<FamilyPanel
								key={generation.id}
								generation={generation}
								imageIndex={imageIndex}
								onOpen={onShowGeneration}
							/>
						) : null}
						{generation ? (
							<PreviewActions
								generation={generation}
								imageIndex={imageIndex}
								actions={actions}
								shareButtonRef={isSharingOn ? shareButtonRef : null}
								onShare={() => setIsSharing(true)}
							/>
						) : null}
					</div>
				</Dialog.Content>
			</Dialog.Portal>
			{isSharing && generation ? (
				<Suspense fallback={null}>
					<ShareDialog
						key={`${generation.id}-${imageIndex}`}
						subject={{ generationId: generation.id, imageIndex, imageCount: images.length }}
						isOpen={isSharing}
						onClose={() => setIsSharing(false)}
						returnFocusRef={shareButtonRef}
					/>
				</Suspense>
			) : null}
		</Dialog.Root>
	);
}
