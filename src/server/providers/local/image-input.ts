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

/**
 * How the offline engine repaints a region (Edit region, Expand): inside the mask, the image's
 * own colours, blurred so their neighbours reach in (an expansion's new area starts as the
 * source's edges stretched outwards), half and half with the engine's render for the prompt and
 * seed; outside it, the image untouched. Grey in the mask blends the two. Deterministic, and
 * saved losslessly (PNG) so the kept pixels stay exactly the source's.
 */
export async function repaintRegion(
	own: RawPicture,
	region: { image: InputImage; mask: InputImage },
): Promise<Buffer> {
	const { width, height } = region.image;
	const { info } = own;
	const channels = info.channels === 4 ? 4 : 3;
	const ownPixels = await sharp(own.data, {
		raw: { width: info.width, height: info.height, channels },
	})
		.resize(width, height, { fit: "fill" })
		.removeAlpha()
		.raw()
		.toBuffer();
	const source = await sharp(region.image.data)
		.removeAlpha()
		.toColourspace("srgb")
		.raw()
		.toBuffer();
	const neighbours = await sharp(region.image.data)
		.removeAlpha()
		.toColourspace("srgb")
		.blur(Math.max(2, Math.min(width, height) / 24))
		.raw()
		.toBuffer();
	const mask = await sharp(region.mask.data)
		.resize(width, height, { fit: "fill" })
		.extractChannel(0)
		.raw()
		.toBuffer();
	const painted = Buffer.alloc(width * height * 3);
	for (let pixel = 0; pixel < width * height; pixel++) {
		const weight = (mask[pixel] ?? 0) / 255;
		for (let channel = 0; channel < 3; channel++) {
			const offset = pixel * 3 + channel;
			const kept = source[offset] ?? 0;
			const fresh = ((neighbours[offset] ?? 0) + (ownPixels[offset] ?? 0)) / 2;
			painted[offset] = Math.round(kept * (1 - weight) + fresh * weight);
		}
	}
	return sharp(painted, { raw: { width, height, channels: 3 } })
		.png()
		.toBuffer();
}
