// The mask as the editor keeps it: one byte a pixel of the source image (0 keep, 255 change,
// between them a soft edge), and the brush and eraser strokes drawn into it. Pure, so strokes
// rasterise the same in a test as on the screen; the canvas only shows the result.

/** A mask at the source's pixel size: `values[y * width + x]`, 0 to 255. */
export type Mask = { width: number; height: number; values: Uint8ClampedArray };

/** The rectangle of pixels a change touched, to redraw only those. Empty when `width` is 0. */
export type PixelRect = { x: number; y: number; width: number; height: number };

export type BrushMode = "paint" | "erase";

export type Brush = {
	/** The brush's diameter, in source pixels. */
	size: number;
	/** 0 (soft: the whole radius fades) to 1 (hard: full strength to the edge). */
	hardness: number;
	mode: BrushMode;
};

export type Point = { x: number; y: number };

export const EMPTY_RECT: PixelRect = { x: 0, y: 0, width: 0, height: 0 };

export function createMask(width: number, height: number): Mask {
	return { width, height, values: new Uint8ClampedArray(width * height) };
}

/**
 * The brush's strength at `distance` from its centre, 0 to 1: full inside the hard core (radius ×
 * hardness), then falling smoothly to 0 at the radius.
 */
export function brushStrength(distance: number, radius: number, hardness: number): number {
	if (distance >= radius) return 0;
	const core = radius * Math.min(1, Math.max(0, hardness));
	if (distance <= core) return 1;
	const fall = (distance - core) / (radius - core);
	// Smoothstep, so a soft edge has no visible ring where the fall begins.
	return 1 - fall * fall * (3 - 2 * fall);
}

/**
 * One dab of the brush at `centre`. Painting raises each pixel to the dab's strength and erasing
 * lowers it to the rest: overlapping dabs of one stroke never build up darker than one dab.
 */
export function stampDab(mask: Mask, centre: Point, brush: Brush): PixelRect {
	const radius = Math.max(0.5, brush.size / 2);
	const left = Math.max(0, Math.floor(centre.x - radius));
	const top = Math.max(0, Math.floor(centre.y - radius));
	const right = Math.min(mask.width, Math.ceil(centre.x + radius));
	const bottom = Math.min(mask.height, Math.ceil(centre.y + radius));
	if (right <= left || bottom <= top) return EMPTY_RECT;
	for (let y = top; y < bottom; y++) {
		for (let x = left; x < right; x++) {
			// The pixel's centre, so a dab at (10, 10) of size 1 covers pixel (9.5..10.5) evenly.
			const distance = Math.hypot(x + 0.5 - centre.x, y + 0.5 - centre.y);
			const strength = brushStrength(distance, radius, brush.hardness);
			if (strength <= 0) continue;
			const index = y * mask.width + x;
			const current = mask.values[index] ?? 0;
			const level = Math.round(strength * 255);
			mask.values[index] =
				brush.mode === "paint" ? Math.max(current, level) : Math.min(current, 255 - level);
		}
	}
	return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The segment from `from` to `to` as dabs a quarter of the radius apart (the end included). */
export function drawSegment(mask: Mask, from: Point, to: Point, brush: Brush): PixelRect {
	const spacing = Math.max(0.5, brush.size / 8);
	const steps = Math.max(1, Math.ceil(Math.hypot(to.x - from.x, to.y - from.y) / spacing));
	let touched = EMPTY_RECT;
	for (let step = 1; step <= steps; step++) {
		const t = step / steps;
		const dab = { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
		touched = unionRects(touched, stampDab(mask, dab, brush));
	}
	return touched;
}

export function unionRects(first: PixelRect, second: PixelRect): PixelRect {
	if (first.width === 0) return second;
	if (second.width === 0) return first;
	const x = Math.min(first.x, second.x);
	const y = Math.min(first.y, second.y);
	return {
		x,
		y,
		width: Math.max(first.x + first.width, second.x + second.width) - x,
		height: Math.max(first.y + first.height, second.y + second.height) - y,
	};
}

/** Invert: what was kept changes and what changed is kept, soft edges mirrored. */
export function invertMask(mask: Mask): void {
	for (let index = 0; index < mask.values.length; index++) {
		mask.values[index] = 255 - (mask.values[index] ?? 0);
	}
}

/** Whether any pixel may change: the server refuses an empty mask. */
export function isMaskEmpty(mask: Mask): boolean {
	return mask.values.every((value) => value === 0);
}
