// The painting area's view, shared by both tools: fitted to the picture when the area's size is
// first known (and on Fit), zoomed around the area's centre by the buttons and keys, and whether
// Space is held to pan.

import { useCallback, useEffect, useRef, useState } from "react";
import { fitView, type ViewTransform, zoomAround } from "./view-transform";

export function useEditorView(picture: { width: number; height: number }) {
	const [view, setView] = useState<ViewTransform>({ scale: 1, offsetX: 0, offsetY: 0 });
	const areaSize = useRef({ width: 0, height: 0 });
	const [isPanKeyHeld, setIsPanKeyHeld] = useState(false);

	const fitToView = useCallback(() => {
		const { width, height } = areaSize.current;
		if (width > 0) setView(fitView(picture, width, height));
	}, [picture]);

	const onResize = useCallback(
		(size: { width: number; height: number }) => {
			const isFirst = areaSize.current.width === 0;
			areaSize.current = size;
			if (isFirst) setView(fitView(picture, size.width, size.height));
		},
		[picture],
	);

	// A new picture (Expand's frame changing) is fitted again.
	useEffect(() => {
		fitToView();
	}, [fitToView]);

	const zoomBy = useCallback((factor: number) => {
		const centre = { x: areaSize.current.width / 2, y: areaSize.current.height / 2 };
		setView((current) => zoomAround(current, centre, current.scale * factor));
	}, []);

	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (event.key !== " " || isTyping(event.target)) return;
			if (event.type === "keydown") {
				// Space pans while held; on a button it would also click it.
				if (!(event.target instanceof HTMLButtonElement)) event.preventDefault();
				setIsPanKeyHeld(true);
			} else {
				setIsPanKeyHeld(false);
			}
		};
		window.addEventListener("keydown", onKey);
		window.addEventListener("keyup", onKey);
		return () => {
			window.removeEventListener("keydown", onKey);
			window.removeEventListener("keyup", onKey);
		};
	}, []);

	return { view, setView, fitToView, zoomBy, onResize, isPanKeyHeld };
}

/** Whether a key goes to a text field (the prompt, a number), which keeps its own keys. */
export function isTyping(target: EventTarget | null): boolean {
	return (
		target instanceof HTMLTextAreaElement ||
		target instanceof HTMLSelectElement ||
		(target instanceof HTMLInputElement && target.type !== "range" && target.type !== "radio")
	);
}
