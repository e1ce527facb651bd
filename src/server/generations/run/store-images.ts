import sharp from "sharp";
import {
	IMAGE_EXTENSIONS,
	IMAGE_TYPES,
	imageTypeOfFormat,
} from "../../../shared/image-input/image-types";
import type { StoredImage } from "../../db/schema";
import { runImageWork, WEBP_EFFORT } from "../../images/image-work";
import { ProviderError } from "../../providers/types";
import type { Storage } from "../../storage/storage";

export const THUMBNAIL_LONG_SIDE = 384;
/**
 * The long side of the display copy, the picture the result gallery and the previews show: sharp
 * on large phone and laptop screens at their pixel density, a fraction of a provider's PNG.
 */
export const DISPLAY_LONG_SIDE = 1600;

/**
 * Whether a file name is one a run writes in its folder: `storeGenerationImage`'s `<index>.<ext>`,
 * `<index>-display.webp` or `<index>-thumb.webp`, or a preview frame, `preview-<n>.webp`.
 */
export function isStoredImageFile(name: string): boolean {
	if (/^preview-\d+\.webp$/.test(name)) return true;
	const match = /^\d+(-thumb|-display)?\.([a-z]+)$/.exec(name);
	return match !== null && IMAGE_EXTENSIONS.includes(match[2] ?? "");
}

/**
 * The key of a run's `frame`th preview frame (WebP). Each frame gets a key of its own, since an
 * image's key never changes its bytes; the run removes the one before, and all at its end.
 */
export function previewKey(folder: string, frame: number): string {
	return `${folder}preview-${frame}.webp`;
}

/** Where every generation's stored objects live, each under a folder of its own. */
export const GENERATIONS_FOLDER = "generations/";

/** Where every stored object of a generation lives, whichever run wrote it. */
export function generationFolder(generationId: string): string {
	return `${GENERATIONS_FOLDER}${generationId}/`;
}

/**
 * Where one run of a generation stores its images. Each run writes only into its own folder, so a
 * run that loses its claim can remove what it wrote without touching another run's images.
 */
export function runFolder(generationId: string, runToken: string): string {
	return `${generationFolder(generationId)}${runToken}/`;
}

/**
 * Stores one image of a generation under `folder`: the original as the provider made it (what a
 * download gives), a WebP display copy at most DISPLAY_LONG_SIDE on its long side (what the screens
 * show) and a small WebP thumbnail for the history, with every size recorded.
 */
export async function storeGenerationImage(
	storage: Storage,
	folder: string,
	index: number,
	data: Uint8Array,
): Promise<StoredImage> {
	let metadata: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
	try {
		metadata = await runImageWork(() => sharp(data).metadata());
	} catch (error) {
		throw new ProviderError("The provider returned data that is not an image", {
			retryable: false,
			cause: error,
		});
	}
	const format = imageTypeOfFormat(metadata.format);
	if (!format || !metadata.width || !metadata.height) {
		throw new ProviderError(`The provider returned an unsupported image (${metadata.format})`, {
			retryable: false,
		});
	}
	// Two resized encodes side by side, each in its turn of the process's image work; the original
	// is written meanwhile.
	const source = sharp(data);
	const key = `${folder}${index}.${format.extension}`;
	const displayKey = `${folder}${index}-display.webp`;
	const thumbnailKey = `${folder}${index}-thumb.webp`;
	const [thumbnail, display] = await settleAll([
		runImageWork(() =>
			source
				.clone()
				.resize(THUMBNAIL_LONG_SIDE, THUMBNAIL_LONG_SIDE, {
					fit: "inside",
					withoutEnlargement: true,
				})
				.webp({ quality: 72, effort: WEBP_EFFORT })
				.toBuffer({ resolveWithObject: true }),
		),
		runImageWork(() =>
			source
				.clone()
				.resize(DISPLAY_LONG_SIDE, DISPLAY_LONG_SIDE, { fit: "inside", withoutEnlargement: true })
				.webp({ quality: 80, effort: WEBP_EFFORT })
				.toBuffer({ resolveWithObject: true }),
		),
		storage.put(key, data, format.contentType),
	] as const);
	await settleAll([
		storage.put(displayKey, display.data, IMAGE_TYPES.webp.contentType),
		storage.put(thumbnailKey, thumbnail.data, IMAGE_TYPES.webp.contentType),
	]);
	return {
		key,
		contentType: format.contentType,
		width: metadata.width,
		height: metadata.height,
		displayKey,
		displayWidth: display.info.width,
		displayHeight: display.info.height,
		thumbnailKey,
		thumbnailWidth: thumbnail.info.width,
		thumbnailHeight: thumbnail.info.height,
		bytes: data.byteLength + display.data.byteLength + thumbnail.data.byteLength,
	};
}

/**
 * Like Promise.all, but rejects only once every promise has settled: nothing is still writing into
 * a run's folder when its failure removes the folder.
 */
async function settleAll<T extends readonly unknown[]>(
	promises: { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
	const settled = await Promise.allSettled(promises);
	const failed = settled.find((result) => result.status === "rejected");
	if (failed) throw failed.reason;
	return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * The bytes a generation's images take in storage, for its row's `stored_bytes`; undefined when an
 * image was stored before sizes were recorded.
 */
export function sumStoredBytes(images: readonly StoredImage[]): number | undefined {
	let total = 0;
	for (const image of images) {
		if (image.bytes === undefined) return undefined;
		total += image.bytes;
	}
	return total;
}
