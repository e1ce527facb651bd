import { useCallback, useRef, useState } from "react";
import { trackEvent } from "../../../lib/ui/analytics";

/**
 * The full-size preview of the results: which image it shows (null when closed), whether it was
 * ever asked for (its code loads on demand), and the image that opened it, where focus goes back.
 */
export function useResultPreview() {
	const [index, setIndex] = useState<number | null>(null);
	const [isRequested, setIsRequested] = useState(false);
	const openerRef = useRef<HTMLElement | null>(null);

	const open = (imageIndex: number, opener: HTMLElement) => {
		openerRef.current = opener;
		setIsRequested(true);
		setIndex(imageIndex);
		trackEvent("image_preview_opened");
	};
	const close = useCallback(() => setIndex(null), []);

	return { index, isRequested, openerRef, open, close, setIndex };
}
