import * as Dialog from "@radix-ui/react-dialog";
import { FolderPlus } from "lucide-react";
import { type FormEvent, type RefObject, useState } from "react";
import { BOARD_NAME_MAX_LENGTH } from "../../../../shared/history/boards";
import {
	boardAddDescription,
	boardAddTitle,
	boardCancel,
	boardCreateFailed,
	boardLoadingList,
	boardMakeAndAdd,
	boardNew,
	boardNoneYet,
	boardYourBoards,
} from "../../../../shared/i18n/messages";
import { Button } from "../../../components/basics/button";
import { DialogFrame } from "../../../components/basics/dialog-frame";
import { TextField } from "../../../components/forms/text-field";
import {
	createBoard,
	listFillableBoards,
	useBoards,
	useChangeBoardGenerations,
} from "../../../lib/collections/boards-requests";
import { showToast } from "../../../lib/ui/toast";

/**
 * Add to board: the person's own boards (not smart ones) to put the chosen generations on, or a
 * new board made on the spot. Opened from a card's menu, the preview or the selection bar.
 */
export function AddToBoardDialog({
	generationIds,
	onClose,
	returnFocusRef,
}: {
	/** The generations to put on a board; empty while the dialog is closed. */
	generationIds: readonly string[];
	onClose: () => void;
	returnFocusRef: RefObject<HTMLElement | null>;
}) {
	const isOpen = generationIds.length > 0;
	const boards = useBoards({ enabled: isOpen });
	const change = useChangeBoardGenerations();
	const [newName, setNewName] = useState("");
	const [isCreating, setIsCreating] = useState(false);
	const fillable = listFillableBoards(boards.data);
	const count = generationIds.length;

	const addTo = (board: { id: string; name: string }) => {
		change.mutate({ board, ids: generationIds, isRemoving: false }, { onSuccess: onClose });
	};

	async function createAndAdd(event: FormEvent) {
		event.preventDefault();
		const name = newName.trim();
		if (!name) return;
		setIsCreating(true);
		try {
			const board = await createBoard({ name });
			setNewName("");
			addTo(board);
		} catch (error) {
			void showToast("error", error instanceof Error ? error.message : boardCreateFailed());
		} finally {
			setIsCreating(false);
		}
	}

	return (
		<DialogFrame
			kind="dialog"
			isOpen={isOpen}
			onOpenChange={(open) => {
				if (!open) onClose();
			}}
			returnFocusRef={returnFocusRef}
			icon={<FolderPlus aria-hidden="true" className="size-5" />}
			title={boardAddTitle()}
			description={boardAddDescription({ count })}
			footer={
				<Dialog.Close asChild>
					<Button variant="secondary" size="sm">
						{boardCancel()}
					</Button>
				</Dialog.Close>
			}
		>
			<div className="mt-4 space-y-4">
				{boards.isPending ? (
					<p className="text-sm text-slate-600">{boardLoadingList()}</p>
				) : fillable.length === 0 ? (
					<p className="text-sm text-slate-600">{boardNoneYet()}</p>
				) : (
					<ul aria-label={boardYourBoards()} className="max-h-60 space-y-1 overflow-y-auto">
						{fillable.map((board) => (
							<li key={board.id}>
								<Button
									variant="ghost"
									size="sm"
									className="w-full justify-start"
									disabled={change.isPending}
									onClick={() => addTo(board)}
								>
									{board.name}
									<span className="ml-auto text-slate-500">{board.count}</span>
								</Button>
							</li>
						))}
					</ul>
				)}
				<form onSubmit={createAndAdd} className="flex items-end gap-2" aria-label={boardNew()}>
					<div className="grow">
						<TextField
							label={boardNew()}
							value={newName}
							maxLength={BOARD_NAME_MAX_LENGTH}
							onChange={(event) => setNewName(event.target.value)}
						/>
					</div>
					<Button type="submit" size="sm" isBusy={isCreating} disabled={!newName.trim()}>
						{boardMakeAndAdd()}
					</Button>
				</form>
			</div>
		</DialogFrame>
	);
}
