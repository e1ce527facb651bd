import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import type { RefObject } from "react";
import type { Generation } from "../../../shared/generation-responses";
import { getButtonClassName } from "../../components/button";

const DELETE_DIALOG_TITLE = "Delete Generation?";
const DELETE_DIALOG_DESCRIPTION =
	"This action cannot be undone. Do you really want to delete this generation?";

type DeleteGenerationDialogProps = {
	generation: Generation | null;
	onConfirm: (generation: Generation) => void;
	onCancel: () => void;
	/**
	 * Where focus goes when the dialog closes: the card's Delete button after Cancel, a neighbouring
	 * card after Delete (the deleted card is about to go). Read at closing time, hence a ref.
	 */
	returnFocusRef: RefObject<HTMLElement | null>;
};

/** Asks before a generation is deleted; deleting happens on the card, which shows it is busy. */
export function DeleteGenerationDialog({
	generation,
	onConfirm,
	onCancel,
	returnFocusRef,
}: DeleteGenerationDialogProps) {
	return (
		<AlertDialog.Root
			open={generation !== null}
			onOpenChange={(isOpen) => (isOpen ? null : onCancel())}
		>
			<AlertDialog.Portal>
				<AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
				<AlertDialog.Content
					onCloseAutoFocus={(event) => {
						// The dialog has no trigger of its own.
						event.preventDefault();
						const target = returnFocusRef.current;
						if (target?.isConnected) target.focus({ preventScroll: true });
					}}
					className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 focus:outline-none"
				>
					<div className="flex gap-4">
						<span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-600 ring-1 ring-red-200 ring-inset">
							<Trash2 aria-hidden="true" className="size-5" />
						</span>
						<div className="min-w-0">
							<AlertDialog.Title className="text-lg font-semibold text-slate-900">
								{DELETE_DIALOG_TITLE}
							</AlertDialog.Title>
							<AlertDialog.Description className="mt-2 text-sm text-slate-600">
								{DELETE_DIALOG_DESCRIPTION}
							</AlertDialog.Description>
							{generation ? (
								<p className="mt-3 line-clamp-2 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words text-slate-700 ring-1 ring-slate-200 ring-inset">
									{generation.prompt}
								</p>
							) : null}
						</div>
					</div>
					<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
							Cancel
						</AlertDialog.Cancel>
						<AlertDialog.Action
							className={getButtonClassName({ variant: "danger" })}
							onClick={() => {
								if (generation) onConfirm(generation);
							}}
						>
							Delete
						</AlertDialog.Action>
					</div>
				</AlertDialog.Content>
			</AlertDialog.Portal>
		</AlertDialog.Root>
	);
}
