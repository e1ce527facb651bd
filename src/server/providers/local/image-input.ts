import sharp, { type JpegOptions } from "sharp";
import type { InputImage } from "../types";

/** A raw RGB picture as sharp gives it: its bytes and their layout. */
type RawPicture = { data: Buffer; info: { width: number; height: number; channels: number } };

/**
 * How the offline engine repaints an image (a variation or an edit): the reference, fitted to the
 * render's size and softened, keeps its composition and palette, and the engine's own render for
 * the prompt and the new seed shows through as far as `strength` says (0 keeps the reference,
 * 1 is the render alone). The stronger the change, the more the reference is blurred: a subtle
 * variation keeps its shapes, a strong one little more than where its colours lie.
 * Deterministic: the same reference, render and strength give the same bytes.
 */
export async function blendWithReference(
	own: RawPicture,
	reference: InputImage,
	strength: number,
): Promise<Buffer> {
	const { width, height, channels } = own.info;
	const source = await sharp(reference.data)
		.resize(width, height, { fit: "cover", kernel: "lanczos3" })
		// Growing with the square of the strength: a subtle variation stays crisp (sigma 1.5 at 0.35),
		// a strong one keeps little but masses of colour (5.2 at 0.7).
		.blur(0.3 + 10 * strength * strength)
		.removeAlpha()
		.toColourspace("srgb")
		.raw()
		.toBuffer();
	const blended = Buffer.alloc(width * height * channels);
	const kept = 1 - strength;
	for (let offset = 0; offset < blended.length; offset++) {
		blended[offset] = Math.round((source[offset] ?? 0) * kept + (own.data[offset] ?? 0) * strength);
	}
	return blended;
}

/**
 * The offline engine's upscale: the image resampled (Lanczos) to `factor` times its width and
 * height. It adds no detail, and says so (docs/providers.md): a model that paints detail in is a provider's.
 * Saved as the engine saves its renders (JPEG).
 */
export async function resampleImage(
	image: InputImage,
	factor: number,
	jpegOptions: JpegOptions,
): Promise<{ data: Buffer; contentType: string; width: number; height: number }> {
	const metadata = await sharp(image.data).metadata();
	const width = (metadata.width ?? image.width) * factor;
	const height = (metadata.height ?? image.height) * factor;
	const data = await sharp(image.data, { limitInputPixels: false })
		.resize(width, height, { fit: "fill", kernel: "lanczos3" })
		.removeAlpha()
		.jpeg(jpegOptions)
		.toBuffer();
	return { data, contentType: "image/jpeg", width, height };
}
