import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import type { RefObject } from "react";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	historyDelete,
	historyDeleteCount,
	historyDeleteDescription,
	historyDeleteManyDescription,
	historyDeleteManyTitle,
	historyDeleteTitle,
	historyOwnerMany,
	historyOwnerOne,
} from "../../../../shared/i18n/messages";
import { getButtonClassName } from "../../../components/basics/button";
import { ConfirmDialog } from "../../../components/basics/confirm-dialog";

type DeleteGenerationDialogProps = {
	/** What is about to be deleted: one generation (a card's Delete) or the selection. */
	generations: readonly Generation[] | null;
	/** The administrator is told whose generations they are, when they are not their own. */
	viewerEmail: string | null;
	onConfirm: (generations: readonly Generation[]) => void;
	onCancel: () => void;
	/**
	 * Where focus goes when the dialog closes: the card's Delete button after Cancel, a neighbouring
	 * card after Delete (the deleted card is about to go). Read at closing time, hence a ref.
	 */
	returnFocusRef: RefObject<HTMLElement | null>;
};

/** The owners, other than the viewer, of what is about to be deleted, each once. */
function listOtherOwners(generations: readonly Generation[], viewerEmail: string | null): string[] {
	const owners = new Set<string>();
	for (const generation of generations) {
		const owner = generation.owner_email;
		if (owner && owner.toLowerCase() !== viewerEmail?.toLowerCase()) owners.add(owner);
	}
	return [...owners].sort();
}

function describeOwners(owners: readonly string[], count: number): string | null {
	if (owners.length === 0) return null;
	if (count === 1) return historyOwnerOne({ owner: owners[0] ?? "" });
	return historyOwnerMany({ owners: owners.join(", ") });
}

/**
 * Whose the generations are, when some are not the viewer's (the administrator's moderation):
 * the dialog says it before a deletion for good, the toast after a move to their owner's Trash.
 */
export function describeOtherOwners(
	generations: readonly Generation[],
	viewerEmail: string | null,
): string | null {
	return describeOwners(listOtherOwners(generations, viewerEmail), generations.length);
}

/**
 * Asks before generations are deleted: one with the exact words of SPEC.md, several with their
 * count. Deleting happens on the cards, which show they are busy.
 */
export function DeleteGenerationDialog({
	generations,
	viewerEmail,
	onConfirm,
	onCancel,
	returnFocusRef,
}: DeleteGenerationDialogProps) {
	const count = generations?.length ?? 0;
	const single = count === 1 ? generations?.[0] : undefined;
	const ownerNote = generations ? describeOtherOwners(generations, viewerEmail) : null;
	return (
		<ConfirmDialog
			isOpen={generations !== null && count > 0}
			onClose={onCancel}
			returnFocusRef={returnFocusRef}
			icon={<Trash2 aria-hidden="true" className="size-5" />}
			tone="danger"
			title={single ? historyDeleteTitle() : historyDeleteManyTitle({ count })}
			description={single ? historyDeleteDescription() : historyDeleteManyDescription({ count })}
			action={
				<AlertDialog.Action
					className={getButtonClassName({ variant: "danger" })}
					onClick={() => {
						if (generations) onConfirm(generations);
					}}
				>
					{single ? historyDelete() : historyDeleteCount({ count })}
				</AlertDialog.Action>
			}
		>
			{ownerNote ? (
				<p className="mt-3 text-sm font-medium break-words text-slate-800">{ownerNote}</p>
			) : null}
			{single ? (
				<p className="mt-3 line-clamp-2 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words text-slate-700 ring-1 ring-slate-200 ring-inset">
					{single.prompt}
				</p>
			) : null}
		</ConfirmDialog>
	);
}
