// Expand's geometry: the new frame around the source, and where the source sits in it. The API
// takes the placement as the room added on each side, a fraction (0 to 1) of the source's width
// (left, right) or height (top, bottom); the editor keeps it in that form.

import { type AspectRatio, findAspectRatio } from "../../../../shared/generations/aspect-ratios";

export type Size = { width: number; height: number };

/** The room added on each side, as a fraction of the source's width or height (0 to 1). */
export type ExpandPlacement = { left: number; right: number; top: number; bottom: number };

export const NO_EXPANSION: ExpandPlacement = { left: 0, right: 0, top: 0, bottom: 0 };

/** The most a side may add: the source's own width or height. */
const MAX_SIDE = 1;

/**
 * The smallest frame of `ratio` that holds the source whole: wider or taller than it, never both,
 * in the source's pixels. A ratio that would add more than the source's size on both sides of
 * one axis is held to what the sides allow.
 */
export function frameForRatio(source: Size, ratio: AspectRatio): Size {
	const { width, height } = findAspectRatio(ratio);
	const target = width / height;
	if (target >= source.width / source.height) {
		const frameWidth = Math.min(source.height * target, source.width * (1 + 2 * MAX_SIDE));
		return { width: frameWidth, height: source.height };
	}
	const frameHeight = Math.min(source.width / target, source.height * (1 + 2 * MAX_SIDE));
	return { width: source.width, height: frameHeight };
}

/** The source centred in `frame`. */
export function centreInFrame(source: Size, frame: Size): ExpandPlacement {
	const horizontal = Math.max(0, frame.width - source.width) / 2 / source.width;
	const vertical = Math.max(0, frame.height - source.height) / 2 / source.height;
	return { left: horizontal, right: horizontal, top: vertical, bottom: vertical };
}

/** The frame a placement makes, in the source's pixels. */
export function frameOf(source: Size, placement: ExpandPlacement): Size {
	return {
		width: source.width * (1 + placement.left + placement.right),
		height: source.height * (1 + placement.top + placement.bottom),
	};
}

/**
 * The source moved inside its frame by `delta` source pixels (a drag): the frame keeps its size,
 * the room shifts from one side to the other, each side held between 0 and the source's size.
 */
export function movePlacement(
	source: Size,
	placement: ExpandPlacement,
	delta: { x: number; y: number },
): ExpandPlacement {
	const [left, right] = shiftRoom(placement.left, placement.right, delta.x / source.width);
	const [top, bottom] = shiftRoom(placement.top, placement.bottom, delta.y / source.height);
	return { left, right, top, bottom };
}

function shiftRoom(before: number, after: number, shift: number): [number, number] {
	const total = before + after;
	const lowest = Math.max(0, total - MAX_SIDE);
	const highest = Math.min(MAX_SIDE, total);
	const moved = Math.min(highest, Math.max(lowest, before + shift));
	return [moved, total - moved];
}

/** Percentages per side (0 to 100), as the percentage fields hold them, to a placement. */
export function placementFromPercentages(percentages: ExpandPlacement): ExpandPlacement {
	const fraction = (percent: number) =>
		Math.min(MAX_SIDE, Math.max(0, Number.isFinite(percent) ? percent / 100 : 0));
	return {
		left: fraction(percentages.left),
		right: fraction(percentages.right),
		top: fraction(percentages.top),
		bottom: fraction(percentages.bottom),
	};
}

/** Whether the placement adds at least one whole pixel: the server refuses an expansion that adds nothing. */
export function addsPixels(source: Size, placement: ExpandPlacement): boolean {
	const frame = frameOf(source, placement);
	return Math.round(frame.width) > source.width || Math.round(frame.height) > source.height;
}

/** The placement as the request sends it: four fractions, rounded to what a pixel can tell. */
export function toExpandRequest(placement: ExpandPlacement): ExpandPlacement {
	const round = (value: number) => Math.round(value * 10_000) / 10_000;
	return {
		left: round(placement.left),
		right: round(placement.right),
		top: round(placement.top),
		bottom: round(placement.bottom),
	};
}
