import * as Dialog from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useState } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	generatorClose,
	generatorImageName,
	generatorNextImage,
	generatorPreviewTitle,
	generatorPreviousImage,
} from "../../../../shared/i18n/messages";
import { getButtonClassName } from "../../../components/basics/button";
import { FamilyPanel } from "../../../components/images/family-panel";
import { ImageActionButtons } from "../../../components/images/image-action-buttons";
import { buildImageSrcSet, readDisplaySource } from "../../../lib/generations/image-sources";
import { useImageActionChoices } from "../../../lib/generations/use-image-action-choices";
import { describeRecipe } from "../flow/describe-recipe";
import type { GeneratedRequest } from "../flow/generation-state";
import {
	buildImageActionStart,
	describeResultImage,
	type EditTarget,
	editImage,
	type ShownGeneration,
	showGeneration,
} from "./result-image";

type ImagePreviewProps = {
	/** The results: their images, prompt, model and seed, and their family. */
	results: ShownGeneration;
	/** The image shown, or null when the preview is closed. */
	index: number | null;
	onIndexChange: (index: number) => void;
	onClose: () => void;
	/** Where focus goes back to when the preview closes: the image that opened it. */
	readReturnFocus: () => HTMLElement | null;
	/** Starts Vary or Upscale of an image: a new generation, followed like any other. */
	onStart: (request: GeneratedRequest) => void;
	/** The form Edit fills: the image as its reference, with its prompt and ratio. */
	editTarget: EditTarget;
};

const NAVIGATION_BUTTON_CLASS_NAME =
	"absolute top-1/2 inline-flex size-10 -translate-y-1/2 cursor-pointer items-center justify-center rounded-full bg-white/90 text-slate-800 shadow-md ring-1 ring-slate-900/10 backdrop-blur transition-colors hover:bg-white";

/**
 * The full-size preview. Radix Dialog closes it on Escape, on Close and on a click outside the
 * picture, locks the page's scroll and keeps focus inside while it is open. Loaded on demand:
 * the first page does not need it.
 */
export function ImagePreview({
	results,
	index,
	onIndexChange,
	onClose,
	readReturnFocus,
	onStart,
	editTarget,
}: ImagePreviewProps) {
	// A generation of the family ("Made from", "Made from this") opened here is shown instead of
	// the results until the preview closes.
	const [family, setFamily] = useState<Generation | null>(null);
	useEffect(() => {
		if (index === null) setFamily(null);
	}, [index]);
	const openFamily = (generation: Generation, imageIndex: number) => {
		setFamily(generation);
		onIndexChange(imageIndex);
	};
	const shown = family ? showGeneration(family) : results;
	const { images, recipe } = shown;
	const prompt = shown.request.prompt;
	const actionChoices = useImageActionChoices(recipe?.model.id);
	const image = index === null ? undefined : images[index];
	const display = image ? readDisplaySource(image) : undefined;
	const count = images.length;
	const showImage = (next: number) => onIndexChange((next + count) % count);

	function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
		if (index === null || count < 2) return;
		if (event.key === "ArrowRight") {
			event.preventDefault();
			showImage(index + 1);
		} else if (event.key === "ArrowLeft") {
			event.preventDefault();
			showImage(index - 1);
		}
	}

	return (
		<Dialog.Root open={image !== undefined} onOpenChange={(isOpen) => (isOpen ? null : onClose())}>
			<Dialog.Portal>
				<Dialog.Overlay className="fixed inset-0 z-dialog bg-slate-950/80 backdrop-blur-sm" />
				{image && display && index !== null ? (
					<Dialog.Content
						onKeyDown={handleKeyDown}
						onCloseAutoFocus={(event) => {
							// The preview has no trigger of its own: return to the image that opened it.
							event.preventDefault();
							readReturnFocus()?.focus();
						}}
						className="fixed top-1/2 left-1/2 z-dialog flex max-h-[calc(100dvh-1.5rem)] w-max max-w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl bg-white p-2 shadow-2xl focus:outline-none sm:p-3"
					>
						<div className="flex items-center justify-between gap-3 pb-2 pl-1.5">
							<Dialog.Title className="text-sm font-semibold text-slate-900">
								{generatorPreviewTitle({ position: index + 1, total: count })}
							</Dialog.Title>
							<Dialog.Close className={getButtonClassName({ variant: "secondary", size: "sm" })}>
								<X aria-hidden="true" className="size-4" />
								{generatorClose()}
							</Dialog.Close>
						</div>
						<div className="relative min-h-0">
							<img
								key={image.url}
								src={display.url}
								srcSet={buildImageSrcSet(image)}
								sizes={`min(calc(100vw - 3rem), calc((100vh - 10rem) * ${(display.width / display.height).toFixed(4)}), ${display.width}px)`}
								width={display.width}
								height={display.height}
								alt={prompt}
								decoding="async"
								style={{
									// As large as the screen allows in the image's own shape, never above its size.
									width: `min(calc(100vw - 3rem), calc((100dvh - 10rem) * ${display.width / display.height}), ${display.width}px)`,
									// The thumbnail, already loaded for the gallery, shows until the full image arrives.
									backgroundImage: `url("${image.thumbnailUrl}")`,
								}}
								className="block h-auto max-w-none rounded-xl bg-slate-100 bg-cover bg-center"
							/>
							{count > 1 ? (
								<>
									<button
										type="button"
										onClick={() => showImage(index - 1)}
										className={`${NAVIGATION_BUTTON_CLASS_NAME} left-2`}
									>
										<ChevronLeft aria-hidden="true" className="size-5" />
										<span className="sr-only">{generatorPreviousImage()}</span>
									</button>
									<button
										type="button"
										onClick={() => showImage(index + 1)}
										className={`${NAVIGATION_BUTTON_CLASS_NAME} right-2`}
									>
										<ChevronRight aria-hidden="true" className="size-5" />
										<span className="sr-only">{generatorNextImage()}</span>
									</button>
								</>
							) : null}
						</div>
						<Dialog.Description className="line-clamp-2 max-w-prose px-1.5 pt-2 text-sm text-slate-600">
							{prompt}
						</Dialog.Description>
						{recipe ? (
							<p className="px-1.5 pt-1 text-xs text-slate-500">{describeRecipe(recipe)}</p>
						) : null}
						<div className="flex flex-wrap items-start justify-between gap-4 px-1.5 pt-3">
							<ImageActionButtons
								choices={actionChoices}
								imageName={generatorImageName({ position: index + 1, total: count })}
								onStart={(action, factor) =>
									onStart(buildImageActionStart(action, describeResultImage(shown, index), factor))
								}
								onEdit={() => {
									editImage(editTarget, describeResultImage(shown, index));
									onClose();
								}}
								editorSource={{ generationId: shown.generationId, imageIndex: index }}
								onOpenEditor={onClose}
							/>
							<FamilyPanel
								key={shown.generationId}
								generation={{ id: shown.generationId, ...shown.family }}
								imageIndex={index}
								onOpen={openFamily}
							/>
						</div>
					</Dialog.Content>
				) : null}
			</Dialog.Portal>
		</Dialog.Root>
	);
}
