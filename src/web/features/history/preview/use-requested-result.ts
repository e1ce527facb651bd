import { type RefObject, useEffect, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Generation } from "../../../../shared/generations/generation-responses";
import { readHistoryLinkState } from "../../../lib/generations/history-link";
import { hasImages } from "../cards/generation-actions-menu";

function findCard(list: HTMLElement | null, id: string): HTMLElement | null {
	return (
		list?.querySelector<HTMLElement>(`article[data-generation-id="${CSS.escape(id)}"]`) ?? null
	);
}

/**
 * Shows the result a navigation asks for (the click of a notification that a generation finished,
 * lib/generations/history-link.ts): the preview of a completed generation's first image at once, focus going
 * back to its card's thumbnail where it is drawn; a failed generation's card, focused, once the list
 * draws it. The request is read once: the navigation's state is cleared after.
 */
export function useRequestedResult({
	items,
	isListLoaded,
	listRef,
	openPreview,
}: {
	items: readonly Generation[];
	isListLoaded: boolean;
	listRef: RefObject<HTMLElement | null>;
	openPreview: (generation: Generation, imageIndex: number, trigger: HTMLElement) => void;
}): void {
	const location = useLocation();
	const navigate = useNavigate();
	const requested = useMemo(() => readHistoryLinkState(location.state), [location.state]);

	useEffect(() => {
		if (!requested) return;
		const card = findCard(listRef.current, requested.id);
		if (hasImages(requested)) {
			const thumbnail = card?.querySelector<HTMLElement>("button[data-preview-image]");
			openPreview(requested, 0, thumbnail ?? card ?? document.body);
		} else if (card) {
			card.scrollIntoView({ block: "nearest" });
			card.focus();
		} else if (!isListLoaded || items.some((item) => item.id === requested.id)) {
			// Its card is still to come: try again when the list changes.
			return;
		}
		const { pathname, search, hash } = location;
		void navigate({ pathname, search, hash }, { replace: true, state: null });
	}, [requested, items, isListLoaded, listRef, openPreview, location, navigate]);
}
