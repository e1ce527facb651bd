// Where the image sits on the editor's screen: a scale and an offset, zoomed around a point (the
// pointer, a pinch's centre) so that point stays under the finger, and fitted to the view.

import type { Point } from "../mask/mask-brush";

export type ViewTransform = { scale: number; offsetX: number; offsetY: number };

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 8;

export function clampZoom(scale: number): number {
	return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
}

/** The image, whole and centred in a view of `viewWidth` × `viewHeight`, at most at 100 %. */
export function fitView(
	image: { width: number; height: number },
	viewWidth: number,
	viewHeight: number,
	margin = 16,
): ViewTransform {
	const room = {
		width: Math.max(1, viewWidth - 2 * margin),
		height: Math.max(1, viewHeight - 2 * margin),
	};
	const scale = clampZoom(Math.min(1, room.width / image.width, room.height / image.height));
	return {
		scale,
		offsetX: (viewWidth - image.width * scale) / 2,
		offsetY: (viewHeight - image.height * scale) / 2,
	};
}

/** The image pixel under the view point `point`. */
export function toImagePoint(view: ViewTransform, point: Point): Point {
	return { x: (point.x - view.offsetX) / view.scale, y: (point.y - view.offsetY) / view.scale };
}

/** The view at `scale` (held within 25 % to 800 %), the image point under `anchor` kept there. */
export function zoomAround(view: ViewTransform, anchor: Point, scale: number): ViewTransform {
	const next = clampZoom(scale);
	const under = toImagePoint(view, anchor);
	return { scale: next, offsetX: anchor.x - under.x * next, offsetY: anchor.y - under.y * next };
}

/** The view moved by `delta` screen pixels. */
export function panBy(view: ViewTransform, delta: Point): ViewTransform {
	return { ...view, offsetX: view.offsetX + delta.x, offsetY: view.offsetY + delta.y };
}

/** A wheel's zoom: each notch (100 units of deltaY) zooms by a fifth, out for positive deltas. */
export function wheelZoomFactor(deltaY: number): number {
	return 1.2 ** (-deltaY / 100);
}
