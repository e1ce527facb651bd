import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { GALLERY_CARD_IMAGES } from "../../../shared/constants";
import type { Generation } from "../../../shared/generation-responses";
import { getButtonClassName } from "../../components/button";
import { buildImageSrcSet, readDisplaySource } from "../../lib/image-sources";
import { describeAspectRatio, formatCreatedDateTime } from "./generation-format";

export type PreviewTarget = { generation: Generation; imageIndex: number };

type ImagePreviewDialogProps = {
	target: PreviewTarget | null;
	isOwnerShown: boolean;
	onSelectImage: (imageIndex: number) => void;
	onClose: () => void;
	/** Where focus goes back to when the preview closes: the thumbnail that opened it. */
	returnFocusRef: RefObject<HTMLElement | null>;
};

function Detail({ term, children }: { term: string; children: ReactNode }) {
	return (
		<div>
			<dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
			<dd className="mt-1 text-sm text-slate-800">{children}</dd>
		</div>
	);
}

/**
 * The full-size preview of one image of a generation, with its prompt, date and time, and aspect
 * ratio. Escape, the Close button and a click outside close it; the page does not scroll meanwhile.
 */
export function ImagePreviewDialog({
	target,
	isOwnerShown,
	onSelectImage,
	onClose,
	returnFocusRef,
}: ImagePreviewDialogProps) {
	const generation = target?.generation;
	const images = generation?.images.slice(0, GALLERY_CARD_IMAGES) ?? [];
	const imageIndex = Math.min(target?.imageIndex ?? 0, Math.max(0, images.length - 1));
	const image = images[imageIndex];

	return (
		<Dialog.Root open={target !== null} onOpenChange={(isOpen) => (isOpen ? null : onClose())}>
			<Dialog.Portal>
				<Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/80" />
				<Dialog.Content
					onCloseAutoFocus={(event) => {
						const target = returnFocusRef.current;
						if (target?.isConnected) {
							event.preventDefault();
							target.focus({ preventScroll: true });
						}
					}}
					className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-6xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl bg-white shadow-2xl focus:outline-none md:flex-row"
				>
					<div className="flex min-h-0 flex-1 items-center justify-center bg-slate-950 p-2 sm:p-4">
						{image ? (
							<img
								key={image.url}
								src={readDisplaySource(image).url}
								srcSet={buildImageSrcSet(image)}
								sizes="(min-width: 48rem) calc(100vw - 20rem), 100vw"
								width={image.width}
								height={image.height}
								alt={`${generation?.prompt ?? ""} (${imageIndex + 1} of ${images.length})`}
								// The thumbnail, already in the cache, stands in while the full image loads.
								style={{ backgroundImage: `url("${image.thumbnailUrl}")` }}
								className="h-auto max-h-[55dvh] w-auto max-w-full rounded-lg bg-slate-900 bg-cover bg-center object-contain md:max-h-[calc(100dvh-4rem)]"
							/>
						) : null}
					</div>
					<div className="flex w-full shrink-0 flex-col gap-5 overflow-y-auto p-5 md:w-80">
						<div className="flex items-start justify-between gap-3">
							<Dialog.Title className="text-base font-semibold text-slate-900">
								{images.length > 1 ? `Image ${imageIndex + 1} of ${images.length}` : "Image"}
							</Dialog.Title>
							<Dialog.Close className={getButtonClassName({ variant: "secondary", size: "sm" })}>
								<X aria-hidden="true" className="size-4" />
								Close
							</Dialog.Close>
						</div>
						{generation ? (
							<dl className="space-y-4">
								<Detail term="Prompt">
									<Dialog.Description className="break-words whitespace-pre-wrap">
										{generation.prompt}
									</Dialog.Description>
								</Detail>
								<Detail term="Created">
									<time dateTime={generation.created_at}>
										{formatCreatedDateTime(generation.created_at)}
									</time>
								</Detail>
								<Detail term="Aspect ratio">{describeAspectRatio(generation.aspect_ratio)}</Detail>
								{isOwnerShown && generation.owner_email ? (
									<Detail term="Owner">
										<span className="break-all">{generation.owner_email}</span>
									</Detail>
								) : null}
							</dl>
						) : null}
						{images.length > 1 ? (
							<div className="mt-auto grid grid-cols-4 gap-2">
								{images.map((thumbnail, index) => (
									<button
										key={thumbnail.thumbnailUrl}
										type="button"
										aria-label={`Show image ${index + 1} of ${images.length}`}
										aria-pressed={index === imageIndex}
										onClick={() => onSelectImage(index)}
										className="aspect-square cursor-pointer overflow-hidden rounded-lg bg-slate-100 opacity-70 ring-accent-600 transition hover:opacity-100 aria-pressed:opacity-100 aria-pressed:ring-2"
									>
										<img
											src={thumbnail.thumbnailUrl}
											width={thumbnail.thumbnailWidth}
											height={thumbnail.thumbnailHeight}
											alt=""
											className="size-full object-cover"
										/>
									</button>
								))}
							</div>
						) : null}
					</div>
				</Dialog.Content>
			</Dialog.Portal>
		</Dialog.Root>
	);
}
