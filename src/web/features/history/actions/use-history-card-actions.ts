// What a history card and the preview can do (the cards' one actions object, made once, and the
// preview's, which closes the preview first), with the dialogs some of them open: Add to board,
// Share, and the Rerun of a model no longer offered (decisions 032 and 036).
import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useMemo, useRef, useState } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import { MODEL_NO_LONGER_OFFERED } from "../../../../shared/generations/generation-settings";
import { usePublicConfig } from "../../../lib/api/public-config";
import { useChangeBoardGenerations } from "../../../lib/collections/boards-requests";
import { showToast } from "../../../lib/ui/toast";
import type { GenerationCardActions } from "../cards/generation-card";
import { copyPrompt, openPollingUrl } from "../cards/generation-card-actions";
import { readIsModelGone } from "../cards/generation-reuse";
import type { useHistoryPreview } from "../preview/use-history-preview";
import type { useHistoryDeletion } from "./use-history-deletion";
import { useImageActionStart, useRerunGeneration, useToggleFavorite } from "./use-history-queries";
import type { useSelectionMode } from "./use-selection-mode";

type HistoryPreview = ReturnType<typeof useHistoryPreview>;

type HistoryCardActionsOptions = {
	/** A board's page (history-page.tsx, BoardMode): what may be put on it and taken off. */
	board: { id: string; name: string; canChange: boolean; isSmart: boolean } | undefined;
	viewerEmail: string | null;
	listRef: RefObject<HTMLDivElement | null>;
	openPreview: HistoryPreview["open"];
	askToDelete: ReturnType<typeof useHistoryDeletion>["ask"];
	clickSelection: ReturnType<typeof useSelectionMode>["click"];
	preview: Pick<HistoryPreview, "close" | "returnFocusRef">;
};

/**
 * Where focus goes back to after the "no longer offered" dialog: what had it (the preview's Rerun),
 * or the card's menu button when that was an item of the menu, which is gone by then.
 */
function findReturnFocus(list: HTMLElement | null, id: string): HTMLElement | null {
	const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
	if (active && !active.closest('[role="menu"]')) return active;
	const card = list?.querySelector(`article[data-generation-id="${CSS.escape(id)}"]`);
	return card?.querySelector<HTMLElement>("button[data-card-menu]") ?? null;
}

/** The cards' and the preview's actions, and the state of the dialogs they open. */
export function useHistoryCardActions({
	board,
	viewerEmail,
	listRef,
	openPreview,
	askToDelete,
	clickSelection,
	preview,
}: HistoryCardActionsOptions) {
	const publicConfig = usePublicConfig();
	const { mutate: toggleFavorite } = useToggleFavorite();
	const { mutate: startRerun } = useRerunGeneration();
	const { mutate: startImageAction } = useImageActionStart();
	const { mutate: changeBoard } = useChangeBoardGenerations();
	// Add to board: the generations chosen, and where focus goes back to.
	const [boardChoiceIds, setBoardChoiceIds] = useState<readonly string[]>([]);
	const boardChoiceFocusRef = useRef<HTMLElement | null>(null);
	const chooseBoards = useCallback((ids: readonly string[]) => {
		boardChoiceFocusRef.current =
			document.activeElement instanceof HTMLElement ? document.activeElement : null;
		setBoardChoiceIds(ids);
	}, []);
	// Another person's board shared with the viewer is read-only: nothing is put on a board from it,
	// and its owner's generations are not the viewer's to delete or mark as favourites.
	const canChooseBoards = board === undefined || board.canChange;
	const canChangeGenerations = canChooseBoards;
	const removableBoard = board?.canChange && !board.isSmart ? board : undefined;
	const removeFromBoard = useCallback(
		(ids: readonly string[]) => {
			if (removableBoard) changeBoard({ board: removableBoard, ids, isRemoving: true });
		},
		[removableBoard, changeBoard],
	);
	// Share in a card's menu: the viewer's own generations, where the server has shared links.
	const [sharing, setSharing] = useState<Generation | null>(null);
	const shareFocusRef = useRef<HTMLElement | null>(null);
	const isSharingOn = publicConfig.data !== undefined && publicConfig.data.sharing !== "off";
	const share = useCallback((generation: Generation) => {
		shareFocusRef.current =
			document.activeElement instanceof HTMLElement ? document.activeElement : null;
		setSharing(generation);
	}, []);
	const canShare = useCallback(
		(generation: Generation) =>
			canChooseBoards && (!generation.owner_email || generation.owner_email === viewerEmail),
		[canChooseBoards, viewerEmail],
	);
	const queryClient = useQueryClient();
	// A Rerun whose model is no longer offered does not start: the dialog says why and offers the
	// generator instead. Use prompt and Use settings go on to the generator, and a toast says it.
	const [goneModelRerun, setGoneModelRerun] = useState<Generation | null>(null);
	const goneModelFocusRef = useRef<HTMLElement | null>(null);
	const rerun = useCallback(
		(generation: Generation) => {
			if (!readIsModelGone(queryClient, generation)) {
				startRerun(generation);
				return;
			}
			goneModelFocusRef.current = findReturnFocus(listRef.current, generation.id);
			setGoneModelRerun(generation);
		},
		[queryClient, startRerun, listRef.current],
	);
	const reuse = useCallback(
		(generation: Generation) => {
			if (readIsModelGone(queryClient, generation)) void showToast("info", MODEL_NO_LONGER_OFFERED);
		},
		[queryClient],
	);
	// One object for every card, made once: cards are memoised and must not re-render for it.
	const actions = useMemo<GenerationCardActions>(
		() => ({
			onPreview: openPreview,
			onOpenPolling: openPollingUrl,
			onDelete: canChangeGenerations
				? (generation, trigger) =>
						askToDelete([generation], { isSelection: false, returnFocusTo: trigger })
				: undefined,
			onToggleFavorite: canChangeGenerations
				? (generation) => toggleFavorite({ id: generation.id, isFavorite: !generation.is_favorite })
				: undefined,
			onRerun: rerun,
			onImageAction: (generation, action, imageIndex, factor) =>
				startImageAction({ generation, action, imageIndex, factor }),
			onReuse: reuse,
			onCopyPrompt: (generation) => void copyPrompt(generation),
			onSelect: (generation, options) => clickSelection(generation.id, options),
			onChooseBoards: canChooseBoards ? (generation) => chooseBoards([generation.id]) : undefined,
			onRemoveFromBoard: removableBoard
				? (generation) => removeFromBoard([generation.id])
				: undefined,
			onShare: isSharingOn ? share : undefined,
			canShare,
		}),
		[
			openPreview,
			askToDelete,
			toggleFavorite,
			rerun,
			startImageAction,
			reuse,
			clickSelection,
			canChangeGenerations,
			canChooseBoards,
			chooseBoards,
			removableBoard,
			removeFromBoard,
			isSharingOn,
			share,
			canShare,
		],
	);
	const previewActions = {
		...actions,
		onDelete: actions.onDelete
			? (generation: Generation) => {
					preview.close();
					askToDelete([generation], {
						isSelection: false,
						returnFocusTo: preview.returnFocusRef.current,
					});
				}
			: undefined,
		onChooseBoards: actions.onChooseBoards
			? (generation: Generation) => {
					preview.close();
					chooseBoards([generation.id]);
				}
			: undefined,
	};

	return {
		actions,
		previewActions,
		canChangeGenerations,
		canChooseBoards,
		chooseBoards,
		removableBoard,
		removeFromBoard,
		boardChoice: {
			ids: boardChoiceIds,
			close: () => setBoardChoiceIds([]),
			focusRef: boardChoiceFocusRef,
		},
		sharing: { generation: sharing, close: () => setSharing(null), focusRef: shareFocusRef },
		goneModelRerun: {
			generation: goneModelRerun,
			close: () => setGoneModelRerun(null),
			focusRef: goneModelFocusRef,
		},
	};
}
