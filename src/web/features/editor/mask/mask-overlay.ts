// The mask as the screen shows it: an offscreen canvas at the source's pixel size, the mask's
// values as the alpha of one colour, updated only where a stroke changed it.

import type { Mask, PixelRect } from "./mask-brush";

/**
 * The mask's colour, half transparent at full strength: a saturated magenta, rare in photographs,
 * which reads over dark and light images alike (and stays the same in a dark theme).
 */
const MASK_RGB = [236, 0, 140] as const;
const MASK_OPACITY = 0.55;

/** Writes the mask's pixels in `rect` ("all": every one) into the overlay canvas. */
export function paintOverlay(
	overlay: HTMLCanvasElement,
	mask: Mask,
	rect: PixelRect | "all",
): void {
	if (overlay.width !== mask.width || overlay.height !== mask.height) {
		overlay.width = mask.width;
		overlay.height = mask.height;
	}
	const context = overlay.getContext("2d");
	if (!context) return;
	const area = rect === "all" ? { x: 0, y: 0, width: mask.width, height: mask.height } : rect;
	if (area.width === 0 || area.height === 0) return;
	const pixels = context.createImageData(area.width, area.height);
	for (let row = 0; row < area.height; row++) {
		for (let column = 0; column < area.width; column++) {
			const value = mask.values[(area.y + row) * mask.width + area.x + column] ?? 0;
			const offset = (row * area.width + column) * 4;
			pixels.data[offset] = MASK_RGB[0];
			pixels.data[offset + 1] = MASK_RGB[1];
			pixels.data[offset + 2] = MASK_RGB[2];
			pixels.data[offset + 3] = Math.round(value * MASK_OPACITY);
		}
	}
	context.putImageData(pixels, area.x, area.y);
}

/** The fill of an expansion's new area, the same colour as a mask. */
export const NEW_AREA_FILL = `rgba(${MASK_RGB.join(", ")}, ${MASK_OPACITY})`;

/** A recorded mask (a PNG, white = change) read back into mask values, in the browser. */
export async function readMaskImage(
	blob: Blob,
	size: { width: number; height: number },
): Promise<Uint8ClampedArray | null> {
	const bitmap = await createImageBitmap(blob);
	const canvas = document.createElement("canvas");
	canvas.width = size.width;
	canvas.height = size.height;
	const context = canvas.getContext("2d");
	if (!context) return null;
	context.drawImage(bitmap, 0, 0, size.width, size.height);
	const { data } = context.getImageData(0, 0, size.width, size.height);
	const values = new Uint8ClampedArray(size.width * size.height);
	for (let index = 0; index < values.length; index++) {
		// White where the image may change; an alpha channel multiplies it, as the server reads it.
		values[index] = Math.round(((data[index * 4] ?? 0) * (data[index * 4 + 3] ?? 0)) / 255);
	}
	return values;
}
