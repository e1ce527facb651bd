// The picture part of a history card (generation-card.tsx): up to four images, each opening the
// preview; while the generation is made, its progress (the line, the bar and the latest preview,
// dimmed); or why it has no image.
import { ImageOff } from "lucide-react";
import { use } from "react";
import { GALLERY_CARD_IMAGES } from "../../../../shared/core/constants";
import {
	type Generation,
	type GenerationImage,
	type GenerationProgress,
	isInProgress,
} from "../../../../shared/generations/generation-responses";
import { describeProgress, readReportedProgress } from "../../../../shared/generations/progress";
import {
	historyGenerating,
	historyGenerationFailed,
	historyLatestPreview,
	historyNoImages,
	historyPreviewImage,
	historyProgressLabel,
	historyQueued,
} from "../../../../shared/i18n/messages";
import { Spinner } from "../../../components/basics/spinner";
import { Thumbnail } from "../../../components/images/thumbnail";
import { joinClassNames } from "../../../lib/ui/class-names";
import { ActiveProgressContext } from "./generation-card-contexts";

function cellSpan(index: number, count: number): string {
	if (count === 1) return "col-span-2 row-span-2";
	if (count === 2 || (count === 3 && index === 0)) return "row-span-2";
	return "";
}

/** One of the card's images: a button that opens it in the preview. */
function CardImageButton({
	image,
	index,
	count,
	onOpen,
}: {
	image: GenerationImage;
	index: number;
	count: number;
	onOpen: (index: number, trigger: HTMLElement) => void;
}) {
	return (
		<button
			type="button"
			aria-label={historyPreviewImage({ index: index + 1, count })}
			data-preview-image
			onClick={(event) => onOpen(index, event.currentTarget)}
			className={`group/image relative min-h-0 min-w-0 cursor-zoom-in overflow-hidden bg-slate-100 focus-visible:z-raised focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600 ${cellSpan(index, count)}`}
		>
			<Thumbnail
				image={image}
				loading="lazy"
				decoding="async"
				draggable={false}
				className="size-full object-cover transition-transform duration-300 group-hover/image:scale-[1.04]"
			/>
		</button>
	);
}

/**
 * The bar of a card still under way, as the generator's maps the provider's fraction (20 to 95);
 * where nothing says how far it is (queued, starting, a provider without steps), a bar without a
 * value, pulsing.
 */
function CardProgressBar({ report }: { report: GenerationProgress | null }) {
	const value = readReportedProgress(report);
	return (
		<div
			role="progressbar"
			aria-label={historyProgressLabel()}
			aria-valuemin={0}
			aria-valuemax={100}
			aria-valuenow={value ?? undefined}
			className={joinClassNames(
				"h-2.5 w-2/3 overflow-hidden rounded-full bg-white/80 ring-1 ring-accent-200",
				value === null ? "animate-pulse" : "",
			)}
		>
			{value === null ? null : (
				<div
					className="h-full rounded-full bg-gradient-to-r from-accent-500 to-accent-700 transition-[width] duration-500 ease-out"
					style={{ width: `${value}%` }}
				/>
			)}
		</div>
	);
}

/**
 * A card still queued or running: what is happening and how far, over the latest preview (dimmed:
 * it is not a result yet) or placeholder tiles. Only these cards read the active generations, so a
 * change of progress re-renders them and not the finished ones.
 */
function PendingMedia({ generation }: { generation: Generation }) {
	// What the header's poll knows of it (started here, in another tab, elsewhere or by the API);
	// the record's own until that poll has answered for it.
	const active = use(ActiveProgressContext);
	const report = active.has(generation.id)
		? (active.get(generation.id) ?? null)
		: generation.progress;
	const label =
		describeProgress(report) ??
		(generation.status === "queued" ? historyQueued() : historyGenerating());
	const previewUrl = report?.previewUrl ?? null;
	return (
		<div className="relative size-full">
			{previewUrl ? (
				<img
					src={previewUrl}
					alt={historyLatestPreview()}
					decoding="async"
					draggable={false}
					className="size-full object-cover opacity-60"
				/>
			) : (
				<div className="grid size-full grid-cols-2 grid-rows-2 gap-0.5">
					{Array.from({ length: GALLERY_CARD_IMAGES }, (_, index) => (
						<div
							// biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder tiles, never reordered.
							key={index}
							className="animate-pulse bg-gradient-to-br from-slate-100 to-slate-200"
						/>
					))}
				</div>
			)}
			<div className="absolute inset-0 flex flex-col items-center justify-center gap-3">
				<span className="inline-flex items-center gap-2 rounded-full bg-white/90 px-3 py-1.5 text-xs font-semibold text-accent-700 shadow-sm ring-1 ring-accent-200">
					<Spinner size="sm" />
					{label}
				</span>
				<CardProgressBar report={report} />
			</div>
		</div>
	);
}

function FailedMedia({ message }: { message: string }) {
	return (
		<div className="flex size-full flex-col items-center justify-center gap-2 bg-red-50/70 px-6 text-center">
			<ImageOff aria-hidden="true" className="size-7 text-red-600" />
			<p className="text-sm font-medium text-red-800">{message}</p>
		</div>
	);
}

/** What a card shows of its generation: its images, its progress while made, or why it has none. */
export function CardMedia({
	generation,
	onOpen,
}: {
	generation: Generation;
	onOpen: (index: number, trigger: HTMLElement) => void;
}) {
	if (isInProgress(generation.status)) return <PendingMedia generation={generation} />;
	if (generation.status === "failed") {
		return <FailedMedia message={generation.error ?? historyGenerationFailed()} />;
	}
	const images = generation.images.slice(0, GALLERY_CARD_IMAGES);
	if (images.length === 0) return <FailedMedia message={historyNoImages()} />;
	return (
		<div className="grid size-full grid-cols-2 grid-rows-2 gap-0.5">
			{images.map((image, index) => (
				<CardImageButton
					key={image.thumbnailUrl}
					image={image}
					index={index}
					count={images.length}
					onOpen={onOpen}
				/>
			))}
		</div>
	);
}
