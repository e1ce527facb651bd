import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileArchive, Link2, Lock, Sparkles, Trash2, Users } from "lucide-react";
import { type FormEvent, lazy, Suspense, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { BOARD_NAME_MAX_LENGTH, type Board } from "../../../shared/history/boards";
import {
	boardAndGenerations,
	boardDelete,
	boardDeleteDescription,
	boardDeleted,
	boardDeletedWith,
	boardDeleteQuestion,
	boardDeleteSmartDescription,
	boardDownloadZip,
	boardMakePrivate,
	boardName,
	boardOnly,
	boardPrivate,
	boardQueryEveryPrompt,
	boardQueryFavourites,
	boardQueryFrom,
	boardQueryModel,
	boardQueryPromptsWith,
	boardQueryTo,
	boardRename,
	boardRenameForm,
	boardSave,
	boardShare,
	boardShared,
	boardSharedByReadOnly,
	boardShareLink,
	boardSmart,
} from "../../../shared/i18n/messages";
import { Badge } from "../../components/basics/badge";
import { Button, getButtonClassName } from "../../components/basics/button";
import { ConfirmDialog } from "../../components/basics/confirm-dialog";
import { TextField } from "../../components/forms/text-field";
import { usePublicConfig } from "../../lib/api/public-config";
import {
	BOARDS_QUERY_KEY,
	buildBoardArchiveUrl,
	deleteBoard,
	updateBoard,
} from "../../lib/collections/boards-requests";
import { showToast } from "../../lib/ui/toast";

// Loaded when Share board is pressed, not with the board's page.
const ShareDialog = lazy(async () => ({
	default: (await import("../../components/images/share-dialog")).ShareDialog,
}));

/** What a smart board's search is, in words. */
function describeQuery(board: Board): string {
	const query = board.query ?? {};
	const parts = [
		query.q ? boardQueryPromptsWith({ text: query.q }) : boardQueryEveryPrompt(),
		query.favorites ? boardQueryFavourites() : null,
		query.aspectRatio ? query.aspectRatio.replace("--ar ", "") : null,
		query.model ? boardQueryModel({ model: query.model }) : null,
		query.from ? boardQueryFrom({ day: query.from }) : null,
		query.to ? boardQueryTo({ day: query.to }) : null,
	];
	return parts.filter(Boolean).join(", ");
}

/**
 * A board's page says what the board is (smart, shared, whose) and offers its owner Share board
 * (a link, where the server has them); for its owner and the administrator, Share, Rename and Delete (Board only, or Board and its generations); its
 * ZIP for whoever sees it.
 */
export function BoardHeader({ board, isOwn }: { board: Board; isOwn: boolean }) {
	const queryClient = useQueryClient();
	const navigate = useNavigate();
	const [isRenaming, setIsRenaming] = useState(false);
	const [name, setName] = useState(board.name);
	const [isDeleteOpen, setIsDeleteOpen] = useState(false);
	const deleteButtonRef = useRef<HTMLButtonElement>(null);
	// Share board: a link for people outside the server, its owner's alone, where links exist.
	const [isLinkOpen, setIsLinkOpen] = useState(false);
	const linkButtonRef = useRef<HTMLButtonElement>(null);
	const config = usePublicConfig().data;
	const canShareLink = isOwn && config !== undefined && config.sharing !== "off";
	const reloadBoards = () => queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });

	const update = useMutation({
		mutationFn: (change: Parameters<typeof updateBoard>[1]) => updateBoard(board.id, change),
		onSuccess: () => {
			setIsRenaming(false);
			void reloadBoards();
		},
		onError: (error) => void showToast("error", error.message),
	});
	const remove = useMutation({
		mutationFn: (withGenerations: boolean) => deleteBoard(board.id, withGenerations),
		onSuccess: (deleted) => {
			void showToast(
				"success",
				deleted > 0 ? boardDeletedWith({ count: deleted }) : boardDeleted(),
			);
			void reloadBoards();
			void queryClient.invalidateQueries({ queryKey: ["generations", "list"] });
			void navigate(APP_PATHS.boards);
		},
		onError: (error) => void showToast("error", error.message),
	});

	function rename(event: FormEvent) {
		event.preventDefault();
		if (name.trim()) update.mutate({ name: name.trim() });
	}

	return (
		<div className="mt-3 space-y-3">
			<div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
				{board.kind === "smart" ? (
					<Badge icon={<Sparkles aria-hidden="true" className="size-3.5" />}>{boardSmart()}</Badge>
				) : null}
				{board.visibility === "shared" ? (
					<Badge icon={<Users aria-hidden="true" className="size-3.5" />}>{boardShared()}</Badge>
				) : (
					<Badge icon={<Lock aria-hidden="true" className="size-3.5" />}>{boardPrivate()}</Badge>
				)}
				{board.kind === "smart" ? <span>{describeQuery(board)}</span> : null}
				{board.canChange ? null : (
					<span>{boardSharedByReadOnly({ email: board.owner.email })}</span>
				)}
			</div>
			<div className="flex flex-wrap items-center gap-2">
				<a
					href={buildBoardArchiveUrl(board.id)}
					download
					className={getButtonClassName({ variant: "secondary", size: "sm" })}
				>
					<FileArchive aria-hidden="true" className="size-4" />
					{boardDownloadZip()}
				</a>
				{canShareLink ? (
					<Button
						ref={linkButtonRef}
						variant="secondary"
						size="sm"
						onClick={() => setIsLinkOpen(true)}
					>
						<Link2 aria-hidden="true" className="size-4" />
						{boardShareLink()}
					</Button>
				) : null}
				{board.canChange ? (
					<>
						<Button
							variant="secondary"
							size="sm"
							isBusy={update.isPending && !isRenaming}
							onClick={() =>
								update.mutate({
									visibility: board.visibility === "shared" ? "private" : "shared",
								})
							}
						>
							{board.visibility === "shared" ? boardMakePrivate() : boardShare()}
						</Button>
						<Button variant="secondary" size="sm" onClick={() => setIsRenaming(!isRenaming)}>
							{boardRename()}
						</Button>
						<Button
							ref={deleteButtonRef}
							variant="ghost"
							size="sm"
							className="text-red-700 hover:bg-red-50 hover:text-red-800"
							onClick={() => setIsDeleteOpen(true)}
						>
							<Trash2 aria-hidden="true" className="size-4" />
							{boardDelete()}
						</Button>
					</>
				) : null}
			</div>
			{isRenaming ? (
				<form onSubmit={rename} aria-label={boardRenameForm()} className="flex items-end gap-2">
					<div className="grow">
						<TextField
							label={boardName()}
							value={name}
							required
							maxLength={BOARD_NAME_MAX_LENGTH}
							onChange={(event) => setName(event.target.value)}
						/>
					</div>
					<Button type="submit" size="sm" isBusy={update.isPending}>
						{boardSave()}
					</Button>
				</form>
			) : null}
			{isLinkOpen ? (
				<Suspense fallback={null}>
					<ShareDialog
						subject={{ boardId: board.id }}
						isOpen
						onClose={() => setIsLinkOpen(false)}
						returnFocusRef={linkButtonRef}
					/>
				</Suspense>
			) : null}
			<ConfirmDialog
				isOpen={isDeleteOpen}
				onClose={() => setIsDeleteOpen(false)}
				returnFocusRef={deleteButtonRef}
				icon={<Trash2 aria-hidden="true" className="size-5" />}
				tone="danger"
				title={boardDeleteQuestion({ name: board.name })}
				description={
					board.kind === "smart" ? boardDeleteSmartDescription() : boardDeleteDescription()
				}
				action={
					<>
						<AlertDialog.Action asChild>
							<Button variant="secondary" onClick={() => remove.mutate(false)}>
								{boardOnly()}
							</Button>
						</AlertDialog.Action>
						{board.kind === "smart" ? null : (
							<AlertDialog.Action asChild>
								<Button variant="danger" onClick={() => remove.mutate(true)}>
									{boardAndGenerations()}
								</Button>
							</AlertDialog.Action>
						)}
					</>
				}
			/>
		</div>
	);
}
