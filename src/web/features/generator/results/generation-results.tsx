import { Clock, Cpu, Expand, Ratio } from "lucide-react";
import { useRef, useState } from "react";
import { findAspectRatio, toRatioParam } from "../../../../shared/generations/aspect-ratios";
import { formatElapsed } from "../../../../shared/generations/elapsed";
import type { GenerationImage } from "../../../../shared/generations/generation-responses";
import {
	generatorAspectRatio,
	generatorElapsedTime,
	generatorGeneratedImages,
	generatorImageCount,
	generatorImageName,
	generatorModel,
	generatorOpenImage,
	generatorPromptPrefix,
	generatorSeed,
	generatorShowImage,
	generatorThumbnails,
} from "../../../../shared/i18n/messages";
import { ImageActionButtons } from "../../../components/images/image-action-buttons";
import { Thumbnail } from "../../../components/images/thumbnail";
import { buildImageSrcSet, readDisplaySource } from "../../../lib/generations/image-sources";
import { useImageActionChoices } from "../../../lib/generations/use-image-action-choices";
import { describeAspectRatio } from "../../../lib/ui/aspect-ratio-label";
import { joinClassNames } from "../../../lib/ui/class-names";
import type { CompletedState, GeneratedRequest } from "../flow/generation-state";
import {
	buildImageActionStart,
	describeResultImage,
	type EditTarget,
	editImage,
} from "./result-image";

type GenerationResultsProps = {
	generation: CompletedState;
	elapsedMs: number | null;
	onOpenImage: (index: number, opener: HTMLElement) => void;
	/** Starts Vary or Upscale of an image: a new generation, followed like any other. */
	onStart: (request: GeneratedRequest) => void;
	/** The form Edit fills: the image as its reference, with its prompt and ratio. */
	editTarget: EditTarget;
};

// Gallery images are at most this tall, and at most 85% of the gallery's width.
const GALLERY_MAX_HEIGHT_REM = 20;
// The result panel's width beside the form on wide screens (7 of 12 columns of max-w-6xl).
const GALLERY_MAX_WIDTH_REM = 40;

/** How wide the gallery shows an image, for `sizes`: the item's width rule, in viewport terms. */
function gallerySizes(image: GenerationImage): string {
	const widthAtMaxHeight = `${((GALLERY_MAX_HEIGHT_REM * image.width) / image.height).toFixed(2)}rem`;
	return `(min-width: 64rem) min(${widthAtMaxHeight}, ${GALLERY_MAX_WIDTH_REM}rem), min(85vw, ${widthAtMaxHeight})`;
}

function GalleryImage({ image, index }: { image: GenerationImage; index: number }) {
	const [isLoaded, setIsLoaded] = useState(false);
	const display = readDisplaySource(image);
	return (
		<>
			{/* The small thumbnail first, at the image's shape; the display copy fades in over it. */}
			<Thumbnail image={image} decoding="async" className="block h-auto w-full" />
			<img
				src={display.url}
				srcSet={buildImageSrcSet(image)}
				sizes={gallerySizes(image)}
				width={display.width}
				height={display.height}
				alt=""
				decoding="async"
				loading={index === 0 ? "eager" : "lazy"}
				onLoad={() => setIsLoaded(true)}
				className={joinClassNames(
					"absolute inset-0 size-full object-cover transition-opacity duration-300",
					isLoaded ? "opacity-100" : "opacity-0",
				)}
			/>
		</>
	);
}

/** The result panel with a finished generation: what was asked, and the images to browse. */
export function GenerationResults({
	generation,
	elapsedMs,
	onOpenImage,
	onStart,
	editTarget,
}: GenerationResultsProps) {
	const { images, request, recipe } = generation;
	const [selectedIndex, setSelectedIndex] = useState(0);
	const actionChoices = useImageActionChoices(recipe?.model.id);
	const itemRefs = useRef<Array<HTMLLIElement | null>>([]);
	const ratio = findAspectRatio(request.aspectRatio);
	const count = images.length;

	function showInGallery(index: number) {
		setSelectedIndex(index);
		itemRefs.current[index]?.scrollIntoView({
			behavior: "smooth",
			block: "nearest",
			inline: "center",
		});
	}

	return (
		<div className="flex min-w-0 flex-1 flex-col">
			<div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
				<h2 className="text-lg font-semibold text-slate-900">{generatorImageCount({ count })}</h2>
				<dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
					<div className="flex items-center gap-1.5">
						<dt>
							<Ratio aria-hidden="true" className="size-4" />
							<span className="sr-only">{generatorAspectRatio()}</span>
						</dt>
						<dd>
							{describeAspectRatio(ratio)}{" "}
							<span className="text-slate-500">· {toRatioParam(ratio.value)}</span>
						</dd>
					</div>
					{recipe ? (
						<div className="flex items-center gap-1.5">
							<dt>
								<Cpu aria-hidden="true" className="size-4" />
								<span className="sr-only">{generatorModel()}</span>
							</dt>
							<dd>{recipe.model.label}</dd>
						</div>
					) : null}
					{recipe && recipe.settings.seed !== null ? (
						<div className="flex items-center gap-1.5">
							<dt className="text-slate-500">{generatorSeed()}</dt>
							<dd className="tabular-nums">{recipe.settings.seed}</dd>
						</div>
					) : null}
					<div className="flex items-center gap-1.5">
						<dt>
							<Clock aria-hidden="true" className="size-4" />
							<span className="sr-only">{generatorElapsedTime()}</span>
						</dt>
						<dd className="tabular-nums">{formatElapsed(elapsedMs)}</dd>
					</div>
				</dl>
			</div>
			<p className="mt-3 rounded-xl bg-slate-50 px-3.5 py-2.5 text-sm break-words text-slate-700 ring-1 ring-slate-200 ring-inset">
				<span className="sr-only">{`${generatorPromptPrefix()} `}</span>
				{request.prompt}
			</p>

			<ul
				aria-label={generatorGeneratedImages()}
				className="@container mt-5 -mx-1 flex snap-x snap-mandatory gap-4 overflow-x-auto px-1 pt-1 pb-3"
			>
				{images.map((image, index) => (
					<li
						key={image.url}
						ref={(element) => {
							itemRefs.current[index] = element;
						}}
						className="shrink-0 snap-center"
						style={{
							width: `min(85cqw, ${((GALLERY_MAX_HEIGHT_REM * image.width) / image.height).toFixed(3)}rem)`,
						}}
					>
						<button
							type="button"
							onClick={(event) => {
								setSelectedIndex(index);
								onOpenImage(index, event.currentTarget);
							}}
							className="group relative block w-full cursor-zoom-in overflow-hidden rounded-xl bg-slate-100 shadow-sm ring-1 ring-slate-900/5"
						>
							<GalleryImage image={image} index={index} />
							<span className="absolute right-2 bottom-2 inline-flex size-8 items-center justify-center rounded-lg bg-slate-950/55 text-on-scrim opacity-0 backdrop-blur transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100">
								<Expand aria-hidden="true" className="size-4" />
							</span>
							<span className="sr-only">
								{generatorOpenImage({ position: index + 1, total: count })}
							</span>
						</button>
					</li>
				))}
			</ul>

			{count > 1 ? (
				<ul aria-label={generatorThumbnails()} className="mt-1 flex gap-2 overflow-x-auto p-1">
					{images.map((image, index) => (
						<li key={image.url} className="shrink-0">
							<button
								type="button"
								aria-current={index === selectedIndex ? "true" : undefined}
								onClick={() => showInGallery(index)}
								className={joinClassNames(
									"relative block cursor-pointer overflow-hidden rounded-lg ring-2 transition",
									index === selectedIndex
										? "ring-accent-600"
										: "opacity-70 ring-transparent hover:opacity-100",
								)}
							>
								<Thumbnail
									image={image}
									decoding="async"
									className="block h-14 w-auto bg-slate-100"
								/>
								<span className="sr-only">
									{generatorShowImage({ position: index + 1, total: count })}
								</span>
							</button>
						</li>
					))}
				</ul>
			) : null}
			<div className="mt-4">
				<ImageActionButtons
					choices={actionChoices}
					imageName={generatorImageName({ position: selectedIndex + 1, total: count })}
					onStart={(action, factor) =>
						onStart(
							buildImageActionStart(action, describeResultImage(generation, selectedIndex), factor),
						)
					}
					onEdit={() => editImage(editTarget, describeResultImage(generation, selectedIndex))}
					editorSource={{ generationId: generation.generationId, imageIndex: selectedIndex }}
				/>
			</div>
		</div>
	);
}
