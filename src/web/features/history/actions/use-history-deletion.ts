import { type RefObject, useCallback, useMemo, useRef, useState } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import { useDeleteGeneration, useDeleteGenerations } from "./use-history-queries";

/** What is about to be deleted, and from where: a card (or the preview), or the selection. */
type PendingDelete = { generations: readonly Generation[]; isSelection: boolean };

/** The card shown after `id` in the list, else the one before it: where focus goes when it is deleted. */
function findNeighbourCard(list: HTMLElement | null, ids: ReadonlySet<string>): HTMLElement | null {
	if (!list) return null;
	const cards = Array.from(list.querySelectorAll<HTMLElement>("article[data-generation-id]"));
	const isGoing = (card: HTMLElement) => ids.has(card.dataset.generationId ?? "");
	const last = cards.findLastIndex(isGoing);
	if (last < 0) return null;
	return (
		cards.slice(last + 1).find((card) => !isGoing(card)) ??
		cards.findLast((card) => !isGoing(card)) ??
		null
	);
}

/**
 * Deleting from the history: what the confirmation dialog asks about, which generations are being
 * deleted meanwhile, and where focus goes after it. A card or the preview deletes one generation;
 * the selection deletes all of it in one request, and is cleared (`onSelectionDeleted`) when done.
 * Focus goes back to what opened the dialog when it is cancelled, and to the neighbouring card (or
 * the heading, when none is left) when it is confirmed.
 */
export function useHistoryDeletion({
	timeZone,
	listRef,
	headingRef,
	onSelectionDeleted,
	hasTrash = false,
	viewerEmail = null,
}: {
	timeZone: string;
	listRef: RefObject<HTMLElement | null>;
	headingRef: RefObject<HTMLElement | null>;
	onSelectionDeleted: () => void;
	/**
	 * Deleting goes to the Trash: nothing is asked, the toast's Undo puts it back. Without a Trash
	 * the confirmation asks first, as SPEC.md's history says.
	 */
	hasTrash?: boolean;
	/** Who deletes: the administrator's toast says whose generations went to their owner's Trash. */
	viewerEmail?: string | null;
}) {
	const deletion = useDeleteGeneration(timeZone, viewerEmail);
	const bulkDeletion = useDeleteGenerations(timeZone, viewerEmail);
	const deletingIds = useMemo<ReadonlySet<string>>(() => {
		if (deletion.isPending && deletion.variables) return new Set([deletion.variables.id]);
		if (bulkDeletion.isPending && bulkDeletion.variables) {
			return new Set(bulkDeletion.variables.map((generation) => generation.id));
		}
		return new Set();
	}, [deletion.isPending, deletion.variables, bulkDeletion.isPending, bulkDeletion.variables]);

	const [pending, setPending] = useState<PendingDelete | null>(null);
	/** Where focus goes when the dialog closes. */
	const returnFocusRef = useRef<HTMLElement | null>(null);

	const { mutate: deleteGeneration } = deletion;
	const { mutate: deleteGenerations } = bulkDeletion;
	const run = (generations: readonly Generation[], isSelection: boolean) => {
		const ids = new Set(generations.map((generation) => generation.id));
		const neighbour = findNeighbourCard(listRef.current, ids) ?? headingRef.current;
		returnFocusRef.current = neighbour;
		setPending(null);
		const [only] = generations;
		if (!isSelection && only) {
			deleteGeneration(only);
			return neighbour;
		}
		deleteGenerations(generations, { onSuccess: onSelectionDeleted });
		return neighbour;
	};
	const runRef = useRef(run);
	runRef.current = run;

	/**
	 * Opens the confirmation; `returnFocusTo` is what gets focus back should it be cancelled. With a
	 * Trash, deletes at once and moves focus to the neighbouring card.
	 */
	const ask = useCallback(
		(
			generations: readonly Generation[],
			{ isSelection, returnFocusTo }: { isSelection: boolean; returnFocusTo: HTMLElement | null },
		) => {
			if (hasTrash) {
				runRef.current(generations, isSelection)?.focus();
				return;
			}
			returnFocusRef.current = returnFocusTo;
			setPending({ generations, isSelection });
		},
		[hasTrash],
	);

	const confirm = (generations: readonly Generation[]) => {
		run(generations, pending?.isSelection ?? false);
	};

	return {
		/** The generations the dialog asks about, or null when it is closed. */
		pendingGenerations: pending?.generations ?? null,
		deletingIds,
		isSelectionDeleting: bulkDeletion.isPending,
		returnFocusRef,
		ask,
		confirm,
		cancel: () => setPending(null),
	};
}
