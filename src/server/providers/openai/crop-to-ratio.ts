import sharp from "sharp";
import { type AspectRatio, findAspectRatio } from "../../../shared/generations/aspect-ratios";
import { IMAGE_TYPES, inputImageTypeOfFormat } from "../../../shared/image-input/image-types";

// Closer than this (0.5 %) counts as the ratio already; a crop would only cost quality.
const RATIO_TOLERANCE = 0.005;

/**
 * Centre-crops an image to exactly the chosen ratio, keeping its format; an image already in
 * that ratio is returned untouched. Used where a vendor only makes a few sizes (OpenAI).
 */
export async function cropToAspectRatio(
	data: Uint8Array,
	aspectRatio: AspectRatio,
): Promise<{ data: Uint8Array; contentType: string }> {
	const metadata = await sharp(data).metadata();
	const width = metadata.width ?? 0;
	const height = metadata.height ?? 0;
	const { format, contentType } = inputImageTypeOfFormat(metadata.format) ?? IMAGE_TYPES.png;
	const ratio = findAspectRatio(aspectRatio);
	const target = ratio.width / ratio.height;
	if (width === 0 || height === 0 || Math.abs(width / height / target - 1) < RATIO_TOLERANCE) {
		return { data, contentType };
	}
	const cropWidth = width / height > target ? Math.round(height * target) : width;
	const cropHeight = width / height > target ? height : Math.round(width / target);
	const cropped = sharp(data).extract({
		left: Math.floor((width - cropWidth) / 2),
		top: Math.floor((height - cropHeight) / 2),
		width: cropWidth,
		height: cropHeight,
	});
	const encoded = format === "png" ? cropped.png() : cropped.toFormat(format, { quality: 95 });
	return { data: new Uint8Array(await encoded.toBuffer()), contentType };
}
