import sharp from "sharp";
import { type ExpandFrame, MASK_FEATHER_PIXELS } from "../../shared/generations/region-edit";
import { runImageWork } from "./image-work";

// The one mask Atelier keeps for a region edit (docs/decisions/033-region-edit.md): a greyscale
// PNG of the image's pixel size, white where the image may change, black where it must stay. Every
// adapter converts from it; the composite lays a provider's result over the source through it.

/** A mask as a person sent it, read into the one convention: one channel, 0 keep to 255 change. */
export type NormalizedMask = {
	/** The greyscale PNG kept with the generation. */
	png: Buffer;
	width: number;
	height: number;
	/** How many pixels may change at all (above 0). */
	changedPixels: number;
};

/**
 * Reads a mask PNG into the one convention: its grey (the luminance of its colours) multiplied by
 * its alpha where it has one, so a transparent pixel is kept whatever its colour.
 */
export async function normalizeMask(data: Uint8Array): Promise<NormalizedMask> {
	const { data: pixels, info } = await runImageWork(() =>
		sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true }),
	);
	const grey = Buffer.alloc(info.width * info.height);
	let changedPixels = 0;
	for (let index = 0; index < grey.length; index++) {
		const offset = index * 4;
		const luminance =
			0.2126 * (pixels[offset] ?? 0) +
			0.7152 * (pixels[offset + 1] ?? 0) +
			0.0722 * (pixels[offset + 2] ?? 0);
		const value = Math.round((luminance * (pixels[offset + 3] ?? 0)) / 255);
		grey[index] = value;
		if (value > 0) changedPixels++;
	}
	const png = await runImageWork(() =>
		sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
			.png()
			.toBuffer(),
	);
	return { png, width: info.width, height: info.height, changedPixels };
}

/**
 * An expansion's canvas: the source scaled to its place in the frame, the new area painted with
 * the source's edge colours stretched outwards (what the offline engine and inpainting models
 * start from), as PNG.
 */
export async function expandCanvas(source: Uint8Array, frame: ExpandFrame): Promise<Buffer> {
	return runImageWork(() =>
		sharp(source)
			.resize(frame.sourceWidth, frame.sourceHeight, { fit: "fill" })
			.extend({
				left: frame.left,
				top: frame.top,
				right: frame.width - frame.left - frame.sourceWidth,
				bottom: frame.height - frame.top - frame.sourceHeight,
				extendWith: "copy",
			})
			.png()
			.toBuffer(),
	);
}

/**
 * An expansion's mask: white over the new area, black over the source but for a band of
 * MASK_FEATHER_PIXELS along the seam, which may change so the seam can blend.
 */
export async function expandMask(frame: ExpandFrame): Promise<Buffer> {
	const grey = Buffer.alloc(frame.width * frame.height, 255);
	const inset = (side: number, edge: number) =>
		side > 0 ? Math.min(MASK_FEATHER_PIXELS, edge) : 0;
	const right = frame.width - frame.left - frame.sourceWidth;
	const bottom = frame.height - frame.top - frame.sourceHeight;
	const keepLeft = frame.left + inset(frame.left, frame.sourceWidth / 4);
	const keepRight = frame.left + frame.sourceWidth - inset(right, frame.sourceWidth / 4);
	const keepTop = frame.top + inset(frame.top, frame.sourceHeight / 4);
	const keepBottom = frame.top + frame.sourceHeight - inset(bottom, frame.sourceHeight / 4);
	for (let y = Math.ceil(keepTop); y < Math.floor(keepBottom); y++) {
		grey.fill(0, y * frame.width + Math.ceil(keepLeft), y * frame.width + Math.floor(keepRight));
	}
	return runImageWork(() =>
		sharp(grey, { raw: { width: frame.width, height: frame.height, channels: 1 } })
			.png()
			.toBuffer(),
	);
}

/**
 * The stored result of a region edit: the provider's image, resized to the source's size, laid
 * over the source through the mask feathered by MASK_FEATHER_PIXELS, so every pixel outside the
 * mask is the source's whatever the provider changed. PNG, lossless.
 */
export async function compositeRegion(
	result: Uint8Array,
	source: Uint8Array,
	mask: Uint8Array,
): Promise<Buffer> {
	const { width, height } = await runImageWork(() => sharp(source).metadata());
	if (!width || !height) throw new Error("The source of a region edit has no size");
	// The feather stays inside the mask: a black pixel of the mask keeps its source pixel exactly.
	const feathered = await runImageWork(() =>
		sharp(mask)
			.resize(width, height, { fit: "fill" })
			.extractChannel(0)
			.blur(MASK_FEATHER_PIXELS / 2)
			.raw()
			.toBuffer(),
	);
	const original = await runImageWork(() => sharp(mask).extractChannel(0).raw().toBuffer());
	const painted = await runImageWork(() =>
		sharp(result).resize(width, height, { fit: "fill" }).removeAlpha().raw().toBuffer(),
	);
	// The result with the mask as its alpha (sharp's removeAlpha would run after a joinChannel).
	const layer = Buffer.alloc(width * height * 4);
	for (let index = 0; index < width * height; index++) {
		layer[index * 4] = painted[index * 3] ?? 0;
		layer[index * 4 + 1] = painted[index * 3 + 1] ?? 0;
		layer[index * 4 + 2] = painted[index * 3 + 2] ?? 0;
		layer[index * 4 + 3] = (original[index] ?? 0) === 0 ? 0 : Math.max(feathered[index] ?? 0, 1);
	}
	return runImageWork(() =>
		sharp(source)
			.removeAlpha()
			.composite([{ input: layer, raw: { width, height, channels: 4 }, blend: "over" }])
			.png()
			.toBuffer(),
	);
}
