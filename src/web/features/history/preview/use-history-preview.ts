import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { GALLERY_CARD_IMAGES } from "../../../../shared/core/constants";
import type { Generation } from "../../../../shared/generations/generation-responses";
import { hasImages } from "../cards/generation-actions-menu";
import type { PreviewStep, PreviewTarget } from "./image-preview-dialog";

/** The next image of the preview one step back or on, across generations at either end. */
function stepPreview(
	target: PreviewTarget,
	previewable: readonly Generation[],
	step: PreviewStep,
): PreviewTarget | null {
	const count = Math.min(target.generation.images.length, GALLERY_CARD_IMAGES);
	const imageIndex = target.imageIndex + step;
	if (imageIndex >= 0 && imageIndex < count) return { ...target, imageIndex };
	const position = previewable.findIndex((item) => item.id === target.generation.id);
	const generation = position < 0 ? undefined : previewable[position + step];
	if (!generation) return null;
	const lastIndex = Math.min(generation.images.length, GALLERY_CARD_IMAGES) - 1;
	return { generation, imageIndex: step === 1 ? 0 : lastIndex };
}

function findPreviewButton(list: HTMLElement | null, id: string): HTMLElement | null {
	const card = list?.querySelector(`article[data-generation-id="${CSS.escape(id)}"]`);
	return card?.querySelector<HTMLElement>("button[data-preview-image]") ?? null;
}

/**
 * The history's preview: which image of which generation it shows (the latest copy of it, so a
 * star changed in the preview shows there), its steps through the loaded history, and where focus
 * goes when it closes. Near the end of what is loaded it fetches on, so Right keeps going.
 */
export function useHistoryPreview({
	items,
	listRef,
	hasNextPage,
	loadMore,
}: {
	items: readonly Generation[];
	listRef: RefObject<HTMLElement | null>;
	hasNextPage: boolean;
	loadMore: () => void;
}) {
	const [preview, setPreview] = useState<PreviewTarget | null>(null);
	/** The thumbnail that opened the preview, where focus goes back to. */
	const returnFocusRef = useRef<HTMLElement | null>(null);

	const previewable = useMemo(() => items.filter(hasImages), [items]);
	const target = useMemo<PreviewTarget | null>(() => {
		if (!preview) return null;
		const fresh = items.find((item) => item.id === preview.generation.id);
		return { generation: fresh ?? preview.generation, imageIndex: preview.imageIndex };
	}, [items, preview]);

	const position = target ? previewable.findIndex((item) => item.id === target.generation.id) : -1;
	const isNearEnd = position >= 0 && position >= previewable.length - 2;
	useEffect(() => {
		if (isNearEnd && hasNextPage) loadMore();
	}, [isNearEnd, hasNextPage, loadMore]);

	const open = useCallback((generation: Generation, imageIndex: number, trigger: HTMLElement) => {
		returnFocusRef.current = trigger;
		setPreview({ generation, imageIndex });
	}, []);

	/** Another generation in the open preview (one of the family), focus returning as before. */
	const show = useCallback((generation: Generation, imageIndex: number) => {
		setPreview({ generation, imageIndex });
	}, []);

	const showImage = (imageIndex: number) =>
		setPreview((current) => (current ? { ...current, imageIndex } : current));

	const step = (direction: PreviewStep) => {
		const next = target ? stepPreview(target, previewable, direction) : null;
		if (next) setPreview(next);
	};

	const canStep = {
		previous: target !== null && stepPreview(target, previewable, -1) !== null,
		next: target !== null && stepPreview(target, previewable, 1) !== null,
	};

	const close = () => {
		// When the arrows moved on to another generation, back to its card if it is drawn; else to
		// the thumbnail that opened the preview.
		const shownId = target?.generation.id;
		const openerId = returnFocusRef.current?.closest("article")?.dataset.generationId;
		if (shownId && openerId !== shownId) {
			const shown = findPreviewButton(listRef.current, shownId);
			if (shown) returnFocusRef.current = shown;
		}
		setPreview(null);
	};

	return { target, open, show, showImage, step, canStep, close, returnFocusRef };
}
