import { useCallback, useRef, useState } from "react";
import type { Generation } from "../../../shared/generation-responses";
import { trackEvent } from "../../lib/analytics";

/**
 * The full-size preview of the results: which image it shows (null when closed), whether it was
 * ever asked for (its code loads on demand), and the image that opened it, where focus goes back.
 * A generation of the results' family ("Made from", "Made from this") may be shown instead.
 */
export function useResultPreview() {
	const [index, setIndex] = useState<number | null>(null);
	const [isRequested, setIsRequested] = useState(false);
	const openerRef = useRef<HTMLElement | null>(null);
	const [family, setFamily] = useState<Generation | null>(null);

	const open = (imageIndex: number, opener: HTMLElement) => {
		openerRef.current = opener;
		setIsRequested(true);
		setFamily(null);
		setIndex(imageIndex);
		trackEvent("image_preview_opened");
	};
	const close = useCallback(() => {
		setIndex(null);
		setFamily(null);
	}, []);
	/** Shows a generation of the family, on `imageIndex`; back to the results when it closes. */
	const showFamily = useCallback((generation: Generation, imageIndex: number) => {
		setFamily(generation);
		setIndex(imageIndex);
	}, []);

	return { index, isRequested, openerRef, open, close, setIndex, family, showFamily };
}
