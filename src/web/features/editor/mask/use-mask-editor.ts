// The mask being painted and what the tools do to it. The mask itself lives in a ref (a megabyte
// a 1024 px image, changed on every pointer move); `version` tells the view to redraw, and the
// changed rectangle tells it what.

import { useCallback, useMemo, useRef, useState } from "react";
import {
	type Brush,
	type BrushMode,
	createMask,
	drawSegment,
	EMPTY_RECT,
	invertMask,
	type Mask,
	type PixelRect,
	type Point,
	unionRects,
} from "./mask-brush";
import { EMPTY_HISTORY, type MaskHistory, recordEdit, redoEdit, undoEdit } from "./mask-history";

/** The brush sizes the slider and `[` `]` offer, for an image of `longSide` pixels. */
export function brushSizeRange(longSide: number): { min: number; max: number; initial: number } {
	const max = Math.max(8, Math.round(longSide / 2));
	return { min: 1, max, initial: Math.min(max, Math.max(8, Math.round(longSide / 16))) };
}

/** One press of `[` or `]`: a tenth of the size, at least a pixel. */
export function stepBrushSize(
	size: number,
	direction: 1 | -1,
	range: { min: number; max: number },
) {
	const step = Math.max(1, Math.round(size / 10));
	return Math.min(range.max, Math.max(range.min, size + direction * step));
}

export type MaskEditor = ReturnType<typeof useMaskEditor>;

export function useMaskEditor(size: { width: number; height: number }) {
	const maskRef = useRef<Mask>(createMask(size.width, size.height));
	if (maskRef.current.width !== size.width || maskRef.current.height !== size.height) {
		maskRef.current = createMask(size.width, size.height);
	}
	const sizeRange = useMemo(
		() => brushSizeRange(Math.max(size.width, size.height)),
		[size.width, size.height],
	);
	const [mode, setMode] = useState<BrushMode>("paint");
	const [brushSize, setBrushSize] = useState(sizeRange.initial);
	const [hardness, setHardness] = useState(0.8);
	const [isMaskShown, setIsMaskShown] = useState(true);
	// Kept in a ref, as the mask is: an undo changes both at once, outside React's updaters.
	const historyRef = useRef<MaskHistory>(EMPTY_HISTORY);
	const [history, setHistoryState] = useState<MaskHistory>(EMPTY_HISTORY);
	const setHistory = useCallback((next: MaskHistory) => {
		historyRef.current = next;
		setHistoryState(next);
	}, []);
	// What changed since the view last drew (the whole mask after Undo, Invert or Clear), and a
	// version that tells it to draw.
	const changedRef = useRef<PixelRect | "all">("all");
	const [version, setVersion] = useState(0);
	const strokeRef = useRef<{ before: Uint8ClampedArray; last: Point } | null>(null);

	const brush: Brush = { size: brushSize, hardness, mode };
	const brushRef = useRef(brush);
	brushRef.current = brush;

	const announce = useCallback((rect: PixelRect | "all") => {
		const changed = changedRef.current;
		changedRef.current = changed === "all" || rect === "all" ? "all" : unionRects(changed, rect);
		setVersion((current) => current + 1);
	}, []);

	/** A whole-mask edit, undoable in one step. */
	const editWhole = useCallback(
		(apply: (mask: Mask) => void) => {
			const mask = maskRef.current;
			setHistory(recordEdit(historyRef.current, mask.values));
			apply(mask);
			announce("all");
		},
		[announce, setHistory],
	);

	const beginStroke = useCallback(
		(at: Point) => {
			const mask = maskRef.current;
			strokeRef.current = { before: mask.values.slice(), last: at };
			announce(drawSegment(mask, at, at, brushRef.current));
		},
		[announce],
	);

	const continueStroke = useCallback(
		(to: Point) => {
			const stroke = strokeRef.current;
			if (!stroke) return;
			const rect = drawSegment(maskRef.current, stroke.last, to, brushRef.current);
			stroke.last = to;
			if (rect !== EMPTY_RECT) announce(rect);
		},
		[announce],
	);

	const endStroke = useCallback(() => {
		const stroke = strokeRef.current;
		if (!stroke) return;
		strokeRef.current = null;
		setHistory(recordEdit(historyRef.current, stroke.before));
	}, [setHistory]);

	/** A stroke a second finger turned into a pinch: as if it had not begun. */
	const cancelStroke = useCallback(() => {
		const stroke = strokeRef.current;
		if (!stroke) return;
		strokeRef.current = null;
		maskRef.current.values.set(stroke.before);
		announce("all");
	}, [announce]);

	const step = useCallback(
		(direction: "back" | "forward") => {
			if (strokeRef.current) return;
			const move = direction === "back" ? undoEdit : redoEdit;
			const result = move(historyRef.current, maskRef.current.values);
			if (!result) return;
			maskRef.current.values.set(result.values);
			setHistory(result.history);
			announce("all");
		},
		[announce, setHistory],
	);

	return {
		maskRef,
		version,
		/** What changed since the last call, for the view to redraw. */
		takeChanged: (): PixelRect | "all" => {
			const changed = changedRef.current;
			changedRef.current = EMPTY_RECT;
			return changed;
		},
		brush,
		sizeRange,
		isMaskShown,
		canUndo: history.past.length > 0,
		canRedo: history.future.length > 0,
		setMode,
		setBrushSize: (value: number) =>
			setBrushSize(Math.min(sizeRange.max, Math.max(sizeRange.min, Math.round(value)))),
		stepBrushSize: (direction: 1 | -1) =>
			setBrushSize((current) => stepBrushSize(current, direction, sizeRange)),
		setHardness,
		setIsMaskShown,
		beginStroke,
		continueStroke,
		endStroke,
		cancelStroke,
		undo: () => step("back"),
		redo: () => step("forward"),
		invertMask: () => editWhole(invertMask),
		clear: () => editWhole((mask) => mask.values.fill(0)),
		/** Replaces the mask (a recorded one, reopened), undoably. */
		load: (values: Uint8ClampedArray) => editWhole((mask) => mask.values.set(values)),
	};
}
