// Edit region's painting area and tools: the image with its mask over it, painted by pointer or
// keyboard, and the editor's shortcuts.

import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { EDITOR_TEXTS } from "../mask/editor-texts";
import type { Point } from "../mask/mask-brush";
import { paintOverlay } from "../mask/mask-overlay";
import { MaskToolbar } from "../mask/mask-toolbar";
import type { MaskEditor } from "../mask/use-mask-editor";
import { EditorCanvas } from "../view/editor-canvas";
import { isTyping, useEditorView } from "../view/use-editor-view";
import { ZoomControls } from "../view/zoom-controls";

const ARROWS: Record<string, Point> = {
	ArrowLeft: { x: -1, y: 0 },
	ArrowRight: { x: 1, y: 0 },
	ArrowUp: { x: 0, y: -1 },
	ArrowDown: { x: 0, y: 1 },
};

export function RegionEditor({
	image,
	size,
	editor,
}: {
	image: HTMLImageElement | null;
	size: { width: number; height: number };
	editor: MaskEditor;
}) {
	const picture = useMemo(
		() => ({ width: size.width, height: size.height }),
		[size.width, size.height],
	);
	const { view, setView, fitToView, zoomBy, onResize, isPanKeyHeld } = useEditorView(picture);
	const overlayRef = useRef<HTMLCanvasElement | null>(null);
	const [keyboardPoint, setKeyboardPoint] = useState<Point | null>(null);

	useEditorShortcuts(editor, { zoomBy, fitToView });

	const draw = (context: CanvasRenderingContext2D) => {
		overlayRef.current ??= document.createElement("canvas");
		const overlay = overlayRef.current;
		paintOverlay(overlay, editor.maskRef.current, editor.takeChanged());
		if (image) context.drawImage(image, 0, 0, size.width, size.height);
		if (editor.isMaskShown) context.drawImage(overlay, 0, 0);
	};

	const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
		const arrow = ARROWS[event.key];
		const start = keyboardPoint ?? { x: size.width / 2, y: size.height / 2 };
		if (arrow) {
			event.preventDefault();
			const step = Math.max(1, editor.brush.size / 2);
			const next = {
				x: Math.min(size.width, Math.max(0, start.x + arrow.x * step)),
				y: Math.min(size.height, Math.max(0, start.y + arrow.y * step)),
			};
			if (event.shiftKey) {
				editor.beginStroke(start);
				editor.continueStroke(next);
				editor.endStroke();
			}
			setKeyboardPoint(next);
		} else if (event.key === "Enter") {
			event.preventDefault();
			editor.beginStroke(start);
			editor.endStroke();
			setKeyboardPoint(start);
		}
	};

	return (
		<div className="flex min-h-0 flex-1 flex-col">
			<MaskToolbar editor={editor} />
			<EditorCanvas
				label={EDITOR_TEXTS.canvas}
				description={EDITOR_TEXTS.canvasHelp}
				view={view}
				onViewChange={setView}
				onResize={onResize}
				draw={draw}
				drawKey={`${editor.version} ${editor.isMaskShown} ${image ? 1 : 0}`}
				primary={{
					start: editor.beginStroke,
					move: editor.continueStroke,
					end: editor.endStroke,
					cancel: editor.cancelStroke,
				}}
				isPanKeyHeld={isPanKeyHeld}
				cursorDiameter={editor.brush.size}
				keyboardPoint={keyboardPoint}
				onKeyDown={onKeyDown}
			/>
			<div className="flex justify-end border-t border-slate-200 bg-white px-2 py-1">
				<ZoomControls scale={view.scale} onZoom={zoomBy} onFit={fitToView} />
			</div>
		</div>
	);
}

/** The editor's keys, anywhere but in a text field: tools, size, undo and redo, zoom. */
function useEditorShortcuts(
	editor: MaskEditor,
	view: { zoomBy: (factor: number) => void; fitToView: () => void },
) {
	const latest = useRef({ editor, view });
	latest.current = { editor, view };
	useEffect(() => {
		const onKeyDown = (event: globalThis.KeyboardEvent) => {
			if (isTyping(event.target) || event.altKey) return;
			const { editor, view } = latest.current;
			const key = event.key.toLowerCase();
			if (event.ctrlKey || event.metaKey) {
				if (key === "z" && !event.shiftKey) editor.undo();
				else if ((key === "z" && event.shiftKey) || key === "y") editor.redo();
				else return;
				event.preventDefault();
				return;
			}
			const actions: Record<string, () => void> = {
				b: () => editor.setMode("paint"),
				e: () => editor.setMode("erase"),
				"[": () => editor.stepBrushSize(-1),
				"]": () => editor.stepBrushSize(1),
				i: editor.invertMask,
				h: () => editor.setIsMaskShown(!editor.isMaskShown),
				"+": () => view.zoomBy(1.25),
				"=": () => view.zoomBy(1.25),
				"-": () => view.zoomBy(1 / 1.25),
				"0": view.fitToView,
			};
			const action = actions[key];
			if (!action) return;
			event.preventDefault();
			action();
		};
		window.addEventListener("keydown", onKeyDown);
		return () => window.removeEventListener("keydown", onKeyDown);
	}, []);
}
