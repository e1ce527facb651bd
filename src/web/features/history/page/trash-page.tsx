import * as AlertDialog from "@radix-ui/react-alert-dialog";
import {
	type InfiniteData,
	useInfiniteQuery,
	useMutation,
	useQueryClient,
} from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import type { TrashItem, TrashPage as TrashPageData } from "../../../../shared/history/trash";
import {
	trashActionFailed,
	trashDeleteCountForever,
	trashDeletedForever,
	trashDeletedLabel,
	trashDeleteForever,
	trashDeleteForeverDescription,
	trashDeleteForeverQuestion,
	trashEmpty,
	trashEmptyButton,
	trashEmptyDescription,
	trashEmptyQuestion,
	trashIntro,
	trashLoadFailed,
	trashLoading,
	trashPurgeLabel,
	trashRestore,
	trashRestoreCount,
	trashRestored,
	trashShowMore,
	trashTitle,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import { ConfirmDialog } from "../../../components/basics/confirm-dialog";
import { QueryStatus } from "../../../components/basics/query-status";
import { Thumbnail } from "../../../components/images/thumbnail";
import {
	deleteForever,
	emptyTrash,
	fetchTrashPage,
	restoreGenerations,
	TRASH_QUERY_KEY,
} from "../../../lib/collections/trash-requests";
import { formatDateTime } from "../../../lib/ui/date-format";
import { showToast } from "../../../lib/ui/toast";
import { reloadGenerationLists } from "../filters/history-cache";

/** What a confirmation asks about: Delete forever of some, or Empty Trash. */
type Question = { kind: "forever"; ids: readonly string[] } | { kind: "empty" };

function useTrash() {
	return useInfiniteQuery<
		TrashPageData,
		Error,
		InfiniteData<TrashPageData, string | null>,
		readonly string[],
		string | null
	>({
		queryKey: TRASH_QUERY_KEY,
		queryFn: ({ pageParam, signal }) => fetchTrashPage(pageParam ?? undefined, signal),
		initialPageParam: null,
		getNextPageParam: (lastPage) => lastPage.nextCursor,
		staleTime: 0,
	});
}

function TrashRow({
	item,
	isSelected,
	onSelect,
	onRestore,
	onDeleteForever,
	isBusy,
}: {
	item: TrashItem;
	isSelected: boolean;
	onSelect: (isSelected: boolean) => void;
	onRestore: () => void;
	onDeleteForever: () => void;
	isBusy: boolean;
}) {
	const image = item.images[0];
	const checkboxId = `trash-select-${item.id}`;
	return (
		<li className="flex flex-wrap items-center gap-4 py-3" data-trash-id={item.id}>
			<input
				id={checkboxId}
				type="checkbox"
				className="size-4"
				checked={isSelected}
				onChange={(event) => onSelect(event.target.checked)}
			/>
			{image ? (
				<Thumbnail image={image} className="size-16 rounded-md object-cover" />
			) : (
				<span className="size-16 rounded-md bg-slate-100" />
			)}
			<div className="min-w-0 flex-1">
				<label htmlFor={checkboxId} className="line-clamp-2 text-sm break-words text-slate-900">
					{item.prompt}
				</label>
				<p className="mt-1 text-xs text-slate-600">
					{trashDeletedLabel()}{" "}
					<time dateTime={item.deletedAt}>{formatDateTime(item.deletedAt)}</time>
					{" · "}
					{trashPurgeLabel()} <time dateTime={item.purgeAt}>{formatDateTime(item.purgeAt)}</time>
					{item.owner_email ? ` · ${item.owner_email}` : null}
				</p>
			</div>
			<div className="flex gap-2">
				<Button variant="secondary" size="sm" onClick={onRestore} disabled={isBusy}>
					{trashRestore()}
				</Button>
				<Button variant="danger" size="sm" onClick={onDeleteForever} disabled={isBusy}>
					{trashDeleteForever()}
				</Button>
			</div>
		</li>
	);
}

/**
 * The Trash (`/trash`): what was deleted, when, and when it is removed for good; Restore and
 * Delete forever for one or the selected ones, Empty Trash after a confirmation.
 */
export function TrashPage() {
	const trash = useTrash();
	const queryClient = useQueryClient();
	const items = trash.data?.pages.flatMap((page) => page.items) ?? [];
	const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
	const [question, setQuestion] = useState<Question | null>(null);
	const headingRef = useRef<HTMLHeadingElement>(null);

	const settle = () => {
		setSelected(new Set());
		void queryClient.invalidateQueries({ queryKey: TRASH_QUERY_KEY });
		void reloadGenerationLists(queryClient);
	};
	const restore = useMutation({
		mutationFn: restoreGenerations,
		onSuccess: (restored) => showToast("success", trashRestored({ count: restored })),
		onError: () => showToast("error", trashActionFailed()),
		onSettled: settle,
	});
	const remove = useMutation({
		mutationFn: (asked: Question) =>
			asked.kind === "empty" ? emptyTrash() : deleteForever(asked.ids),
		onSuccess: (deleted) => showToast("success", trashDeletedForever({ count: deleted })),
		onError: () => showToast("error", trashActionFailed()),
		onSettled: settle,
	});
	const isBusy = restore.isPending || remove.isPending;
	const selectedIds = items.filter((item) => selected.has(item.id)).map((item) => item.id);

	let content: ReactNode;
	if (!trash.data) {
		content = (
			<QueryStatus query={trash} loadingLabel={trashLoading()} failureMessage={trashLoadFailed()} />
		);
	} else if (items.length === 0) {
		content = <p className="py-8 text-center text-sm text-slate-600">{trashEmpty()}</p>;
	} else {
		content = (
			<>
				<ul className="divide-y divide-slate-200">
					{items.map((item) => (
						<TrashRow
							key={item.id}
							item={item}
							isSelected={selected.has(item.id)}
							isBusy={isBusy}
							onSelect={(isSelected) =>
								setSelected((current) => {
									const next = new Set(current);
									if (isSelected) next.add(item.id);
									else next.delete(item.id);
									return next;
								})
							}
							onRestore={() => restore.mutate([item.id])}
							onDeleteForever={() => setQuestion({ kind: "forever", ids: [item.id] })}
						/>
					))}
				</ul>
				{trash.hasNextPage ? (
					<div className="mt-4 flex justify-center">
						<Button
							variant="secondary"
							onClick={() => void trash.fetchNextPage()}
							disabled={trash.isFetchingNextPage}
						>
							{trashShowMore()}
						</Button>
					</div>
				) : null}
			</>
		);
	}

	const count = question?.kind === "forever" ? question.ids.length : items.length;
	return (
		<section className="mx-auto w-full max-w-4xl px-4 py-8" aria-labelledby="trash-heading">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1
					id="trash-heading"
					ref={headingRef}
					tabIndex={-1}
					className="text-2xl font-semibold text-slate-900"
				>
					{trashTitle()}
				</h1>
				<div className="flex flex-wrap gap-2">
					{selectedIds.length > 0 ? (
						<>
							<Button
								variant="secondary"
								onClick={() => restore.mutate(selectedIds)}
								disabled={isBusy}
							>
								{trashRestoreCount({ count: selectedIds.length })}
							</Button>
							<Button
								variant="danger"
								onClick={() => setQuestion({ kind: "forever", ids: selectedIds })}
								disabled={isBusy}
							>
								{trashDeleteCountForever({ count: selectedIds.length })}
							</Button>
						</>
					) : null}
					<Button
						variant="danger"
						onClick={() => setQuestion({ kind: "empty" })}
						disabled={isBusy || items.length === 0}
					>
						{trashEmptyButton()}
					</Button>
				</div>
			</div>
			<p className="mt-2 text-sm text-slate-600">{trashIntro()}</p>
			<div className="mt-6">{content}</div>
			<ConfirmDialog
				isOpen={question !== null}
				onClose={() => setQuestion(null)}
				returnFocusRef={headingRef}
				icon={<Trash2 aria-hidden="true" className="size-5" />}
				tone="danger"
				title={question?.kind === "empty" ? trashEmptyQuestion() : trashDeleteForeverQuestion()}
				description={
					question?.kind === "empty"
						? trashEmptyDescription()
						: trashDeleteForeverDescription({ count })
				}
				action={
					<AlertDialog.Action
						className={getButtonClassName({ variant: "danger" })}
						onClick={() => {
							if (question) remove.mutate(question);
							setQuestion(null);
						}}
					>
						{question?.kind === "empty" ? trashEmptyButton() : trashDeleteForever()}
					</AlertDialog.Action>
				}
			/>
		</section>
	);
}
