// Your styles: the person's own prompt styles (made in the generator with "Save as style"),
// renamed or deleted here. The operator's styles are not theirs to change and are not listed.
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Palette } from "lucide-react";
import { useId, useRef, useState } from "react";
import {
	accountActionFailed,
	accountCancel,
	accountDelete,
	accountSave,
	accountStylesDeleteDescription,
	accountStylesDeleteNamed,
	accountStylesDeleteTitle,
	accountStylesDescription,
	accountStylesLeavesOut,
	accountStylesList,
	accountStylesLoadFailed,
	accountStylesLoading,
	accountStylesNewName,
	accountStylesNone,
	accountStylesRename,
	accountStylesRenameNamed,
	accountStylesTitle,
} from "../../../shared/i18n/messages";
import { type PromptStyle, previewStyle } from "../../../shared/prompts/prompt-tool-responses";
import { Button, getButtonClassName } from "../../components/basics/button";
import { ConfirmDialog } from "../../components/basics/confirm-dialog";
import { QueryStatus } from "../../components/basics/query-status";
import { ApiError } from "../../lib/api/api-client";
import {
	deleteStyle,
	renameStyle,
	STYLES_QUERY_KEY,
	useStyles,
} from "../../lib/generations/prompts-requests";
import { showToast } from "../../lib/ui/toast";
import { Section } from "./account-section";

function failureMessage(error: unknown): string {
	return error instanceof ApiError ? error.message : accountActionFailed();
}

function StyleRow({
	style,
	onDelete,
}: {
	style: PromptStyle;
	onDelete: (style: PromptStyle, opener: HTMLElement) => void;
}) {
	const queryClient = useQueryClient();
	const inputId = useId();
	const [name, setName] = useState<string | null>(null);
	const rename = useMutation({
		mutationFn: (next: string) => renameStyle(style.id, next),
		onSuccess: async () => {
			setName(null);
			await queryClient.invalidateQueries({ queryKey: STYLES_QUERY_KEY });
		},
		onError: (error) => void showToast("error", failureMessage(error)),
	});
	return (
		<li className="flex flex-wrap items-center gap-3 py-3">
			{name === null ? (
				<div className="min-w-0 flex-1">
					<p className="font-medium text-slate-900">{style.name}</p>
					<p className="truncate text-xs text-slate-600" title={style.prompt}>
						{style.negativePrompt
							? accountStylesLeavesOut({
									preview: previewStyle(style),
									negative: style.negativePrompt,
								})
							: previewStyle(style)}
					</p>
				</div>
			) : (
				<form
					className="flex min-w-0 flex-1 items-center gap-2"
					onSubmit={(event) => {
						event.preventDefault();
						if (name.trim()) rename.mutate(name.trim());
					}}
				>
					<label htmlFor={inputId} className="sr-only">
						{accountStylesNewName({ name: style.name })}
					</label>
					<input
						id={inputId}
						value={name}
						maxLength={60}
						// biome-ignore lint/a11y/noAutofocus: the field the person just asked for.
						autoFocus
						onChange={(event) => setName(event.target.value)}
						onKeyDown={(event) => {
							if (event.key === "Escape") setName(null);
						}}
						className="h-9 min-w-0 flex-1 rounded-lg border-0 bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-accent-600 focus:outline-none"
					/>
					<Button type="submit" size="sm" isBusy={rename.isPending}>
						{accountSave()}
					</Button>
					<Button size="sm" variant="ghost" onClick={() => setName(null)}>
						{accountCancel()}
					</Button>
				</form>
			)}
			{name === null ? (
				<div className="flex gap-2">
					<Button
						size="sm"
						variant="secondary"
						aria-label={accountStylesRenameNamed({ name: style.name })}
						onClick={() => setName(style.name)}
					>
						{accountStylesRename()}
					</Button>
					<Button
						size="sm"
						variant="ghost"
						aria-label={accountStylesDeleteNamed({ name: style.name })}
						onClick={(event) => onDelete(style, event.currentTarget)}
					>
						{accountDelete()}
					</Button>
				</div>
			) : null}
		</li>
	);
}

/** The person's own styles, each renamed or deleted in place. */
export function StylesSection() {
	const queryClient = useQueryClient();
	const styles = useStyles(true);
	const [deleting, setDeleting] = useState<PromptStyle | null>(null);
	const returnFocusRef = useRef<HTMLElement | null>(null);
	const remove = useMutation({
		mutationFn: (id: string) => deleteStyle(id),
		onSuccess: () => queryClient.invalidateQueries({ queryKey: STYLES_QUERY_KEY }),
		onError: (error) => void showToast("error", failureMessage(error)),
	});
	const personal = styles.data?.filter((style) => style.scope === "personal") ?? [];
	return (
		<Section title={accountStylesTitle()} description={accountStylesDescription()}>
			{styles.data ? (
				personal.length === 0 ? (
					<p className="text-sm text-slate-600">{accountStylesNone()}</p>
				) : (
					<ul aria-label={accountStylesList()} className="divide-y divide-slate-200">
						{personal.map((style) => (
							<StyleRow
								key={style.id}
								style={style}
								onDelete={(chosen, opener) => {
									returnFocusRef.current = opener;
									setDeleting(chosen);
								}}
							/>
						))}
					</ul>
				)
			) : (
				<QueryStatus
					query={styles}
					loadingLabel={accountStylesLoading()}
					failureMessage={accountStylesLoadFailed()}
				/>
			)}
			<ConfirmDialog
				isOpen={deleting !== null}
				onClose={() => setDeleting(null)}
				returnFocusRef={returnFocusRef}
				icon={<Palette aria-hidden="true" className="size-5" />}
				tone="danger"
				title={accountStylesDeleteTitle({ name: deleting?.name ?? "" })}
				description={accountStylesDeleteDescription()}
				action={
					<AlertDialog.Action
						className={getButtonClassName({ variant: "danger" })}
						onClick={() => {
							if (deleting) remove.mutate(deleting.id);
						}}
					>
						{accountDelete()}
					</AlertDialog.Action>
				}
			/>
		</Section>
	);
}
