// The editor's painting area: the picture drawn through the view's transform on a canvas of the
// area's size, and the gestures every tool shares. The primary pointer (a mouse's left button, a
// pen, one finger) belongs to the tool; Space held with a drag, the middle button and two fingers
// pan; the wheel and a pinch zoom around the pointer. Pointer events, so pen, mouse and touch are
// one code path.

import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";
import type { Point } from "../mask/mask-brush";
import { useViewSize } from "./use-view-size";
import {
	panBy,
	toImagePoint,
	type ViewTransform,
	wheelZoomFactor,
	zoomAround,
} from "./view-transform";

export type PrimaryGesture = {
	start: (at: Point) => void;
	move: (to: Point) => void;
	end: () => void;
	/** A second finger came: what the first began is undone, the two pan and zoom instead. */
	cancel: () => void;
};

type EditorCanvasProps = {
	label: string;
	description: string;
	view: ViewTransform;
	onViewChange: (change: (view: ViewTransform) => ViewTransform) => void;
	/** Called with the area's size once known and whenever it changes, to fit the picture. */
	onResize: (size: { width: number; height: number }) => void;
	/** Draws the picture in its own pixels; the transform is set. */
	draw: (context: CanvasRenderingContext2D) => void;
	/** Changes whenever the picture does. */
	drawKey: unknown;
	primary: PrimaryGesture;
	/** Whether Space is held: the primary pointer pans instead. */
	isPanKeyHeld: boolean;
	/** The brush's diameter in the picture's pixels, for the round cursor; none without a brush. */
	cursorDiameter?: number;
	/** The keyboard's brush position, in the picture's pixels. */
	keyboardPoint?: Point | null;
	onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
};

type Gesture =
	| { kind: "primary" }
	| { kind: "pan"; last: Point }
	| { kind: "pinch"; distance: number; centre: Point };

export function EditorCanvas({
	label,
	description,
	view,
	onViewChange,
	onResize,
	draw,
	drawKey,
	primary,
	isPanKeyHeld,
	cursorDiameter,
	keyboardPoint,
	onKeyDown,
}: EditorCanvasProps) {
	const areaRef = useRef<HTMLDivElement>(null);
	const canvasRef = useRef<HTMLCanvasElement>(null);
	const descriptionId = useId();
	const size = useViewSize(areaRef);
	const pointers = useRef(new Map<number, Point>());
	const gesture = useRef<Gesture | null>(null);
	const [hover, setHover] = useState<Point | null>(null);
	const viewRef = useRef(view);
	viewRef.current = view;

	// biome-ignore lint/correctness/useExhaustiveDependencies: onResize is the page's, a new function each render; the size alone decides
	useEffect(() => {
		if (size.width > 0 && size.height > 0) onResize(size);
	}, [size]);

	// biome-ignore lint/correctness/useExhaustiveDependencies: drawKey says when the picture changed
	useEffect(() => {
		const canvas = canvasRef.current;
		if (!canvas) return;
		const ratio = window.devicePixelRatio || 1;
		canvas.width = Math.round(size.width * ratio);
		canvas.height = Math.round(size.height * ratio);
		const context = canvas.getContext("2d");
		if (!context) return;
		context.setTransform(1, 0, 0, 1, 0, 0);
		context.clearRect(0, 0, canvas.width, canvas.height);
		context.setTransform(
			ratio * view.scale,
			0,
			0,
			ratio * view.scale,
			ratio * view.offsetX,
			ratio * view.offsetY,
		);
		// Zoomed in, pixels show as pixels: the mask is painted per pixel.
		context.imageSmoothingEnabled = view.scale < 2;
		draw(context);
	}, [size, view, drawKey]);

	// The wheel zooms; React's wheel listener is passive and could not keep the page from scrolling.
	useEffect(() => {
		const area = areaRef.current;
		if (!area) return;
		const onWheel = (event: WheelEvent) => {
			event.preventDefault();
			const anchor = localPoint(area, event);
			onViewChange((current) =>
				zoomAround(current, anchor, current.scale * wheelZoomFactor(event.deltaY)),
			);
		};
		area.addEventListener("wheel", onWheel, { passive: false });
		return () => area.removeEventListener("wheel", onWheel);
	}, [onViewChange]);

	const toPicture = (point: Point) => toImagePoint(viewRef.current, point);

	const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
		const area = areaRef.current;
		if (!area) return;
		area.focus({ preventScroll: true });
		area.setPointerCapture(event.pointerId);
		const point = localPoint(area, event);
		pointers.current.set(event.pointerId, point);
		if (pointers.current.size === 2) {
			if (gesture.current?.kind === "primary") primary.cancel();
			const [first, second] = [...pointers.current.values()] as [Point, Point];
			gesture.current = {
				kind: "pinch",
				distance: Math.max(1, Math.hypot(second.x - first.x, second.y - first.y)),
				centre: midpoint(first, second),
			};
			return;
		}
		if (pointers.current.size > 2) return;
		event.preventDefault();
		if (event.button === 1 || (event.button === 0 && isPanKeyHeld)) {
			gesture.current = { kind: "pan", last: point };
		} else if (event.button === 0) {
			gesture.current = { kind: "primary" };
			primary.start(toPicture(point));
		}
	};

	const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
		const area = areaRef.current;
		if (!area) return;
		const point = localPoint(area, event);
		setHover(event.pointerType === "touch" ? null : point);
		if (!pointers.current.has(event.pointerId)) return;
		pointers.current.set(event.pointerId, point);
		const current = gesture.current;
		if (current?.kind === "primary") {
			primary.move(toPicture(point));
		} else if (current?.kind === "pan") {
			const delta = { x: point.x - current.last.x, y: point.y - current.last.y };
			current.last = point;
			onViewChange((view) => panBy(view, delta));
		} else if (current?.kind === "pinch" && pointers.current.size >= 2) {
			const [first, second] = [...pointers.current.values()] as [Point, Point];
			const distance = Math.max(1, Math.hypot(second.x - first.x, second.y - first.y));
			const centre = midpoint(first, second);
			const { distance: before, centre: previous } = current;
			gesture.current = { kind: "pinch", distance, centre };
			onViewChange((view) =>
				zoomAround(
					panBy(view, { x: centre.x - previous.x, y: centre.y - previous.y }),
					centre,
					(view.scale * distance) / before,
				),
			);
		}
	};

	const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
		pointers.current.delete(event.pointerId);
		if (event.type === "pointerleave" || event.type === "pointercancel") setHover(null);
		if (pointers.current.size > 0) return;
		if (gesture.current?.kind === "primary") primary.end();
		gesture.current = null;
	};

	const cursorAt = hover ?? (keyboardPoint ? fromPicture(view, keyboardPoint) : null);
	const diameter = cursorDiameter === undefined ? 0 : cursorDiameter * view.scale;

	return (
		<div
			ref={areaRef}
			role="application"
			aria-label={label}
			aria-describedby={descriptionId}
			// biome-ignore lint/a11y/noNoninteractiveTabindex: an application region takes the keyboard's painting
			tabIndex={0}
			onPointerDown={onPointerDown}
			onPointerMove={onPointerMove}
			onPointerUp={onPointerEnd}
			onPointerCancel={onPointerEnd}
			onPointerLeave={(event) => {
				if (!pointers.current.has(event.pointerId)) setHover(null);
			}}
			onKeyDown={onKeyDown}
			className="relative min-h-0 flex-1 overflow-hidden bg-slate-900 outline-none select-none focus-visible:ring-2 focus-visible:ring-accent-600"
			// No touch gesture of the browser's own: one finger paints, two pan and zoom the picture.
			style={{
				touchAction: "none",
				cursor: isPanKeyHeld ? "grab" : cursorDiameter === undefined ? "move" : "none",
			}}
			data-testid="editor-canvas"
		>
			<canvas ref={canvasRef} className="absolute inset-0 size-full" />
			<p id={descriptionId} className="sr-only">
				{description}
			</p>
			{cursorAt && cursorDiameter !== undefined ? (
				<div
					aria-hidden="true"
					data-testid="brush-cursor"
					className="pointer-events-none absolute rounded-full"
					// A dark ring around the white one, so the cursor shows on light and dark images.
					style={{
						border: "1px solid white",
						boxShadow: "0 0 0 1px rgba(0, 0, 0, 0.7)",
						left: cursorAt.x - diameter / 2,
						top: cursorAt.y - diameter / 2,
						width: diameter,
						height: diameter,
					}}
				/>
			) : null}
		</div>
	);
}

function localPoint(area: HTMLElement, event: { clientX: number; clientY: number }): Point {
	const bounds = area.getBoundingClientRect();
	return { x: event.clientX - bounds.left, y: event.clientY - bounds.top };
}

function midpoint(first: Point, second: Point): Point {
	return { x: (first.x + second.x) / 2, y: (first.y + second.y) / 2 };
}

function fromPicture(view: ViewTransform, point: Point): Point {
	return { x: point.x * view.scale + view.offsetX, y: point.y * view.scale + view.offsetY };
}
