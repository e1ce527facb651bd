import type { GenerationImage } from "../../../shared/generations/generation-responses";

type ImageSource = { url: string; width: number; height: number };

/**
 * The picture the screens show at full size: the WebP display copy (long side at most 1600 px), or
 * the original for images stored before display copies were made. Downloads use `image.url`.
 */
export function readDisplaySource(image: GenerationImage): ImageSource {
	if (image.displayUrl && image.displayWidth && image.displayHeight) {
		return { url: image.displayUrl, width: image.displayWidth, height: image.displayHeight };
	}
	return { url: image.url, width: image.width, height: image.height };
}

/**
 * A `srcset` offering the thumbnail and the display copy by their widths, so the browser loads the
 * smallest that covers the `sizes` the image is shown at on this screen and pixel density.
 */
export function buildImageSrcSet(image: GenerationImage): string {
	const display = readDisplaySource(image);
	const candidates = [`${display.url} ${display.width}w`];
	if (image.thumbnailUrl !== display.url && image.thumbnailWidth < display.width) {
		candidates.unshift(`${image.thumbnailUrl} ${image.thumbnailWidth}w`);
	}
	return candidates.join(", ");
}
