import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { BOARD_NAME_MAX_LENGTH, type BoardQuery } from "../../../shared/history/boards";
import {
	boardFavouritesOnly,
	boardFrom,
	boardMake,
	boardNameField,
	boardNew,
	boardPromptContains,
	boardSavedSearch,
	boardSharedWithEveryone,
	boardSmartOption,
	boardTo,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { TextField } from "../../components/forms/text-field";
import { BOARDS_QUERY_KEY, createBoard } from "../../lib/collections/boards-requests";

/** The search of a smart board as the form holds it: empty fields are no filter. */
function buildQuery(fields: { q: string; isFavoritesOnly: boolean; from: string; to: string }) {
	const query: BoardQuery = {};
	if (fields.q.trim()) query.q = fields.q.trim();
	if (fields.isFavoritesOnly) query.favorites = true;
	if (fields.from) query.from = fields.from;
	if (fields.to) query.to = fields.to;
	return query;
}

/**
 * New board: a name, shared or private, and for a smart board its saved search (words,
 * favourites, days).
 */
export function NewBoardForm() {
	const queryClient = useQueryClient();
	const [name, setName] = useState("");
	const [isShared, setIsShared] = useState(false);
	const [isSmart, setIsSmart] = useState(false);
	const [q, setQ] = useState("");
	const [isFavoritesOnly, setIsFavoritesOnly] = useState(false);
	const [from, setFrom] = useState("");
	const [to, setTo] = useState("");
	const create = useMutation({
		mutationFn: createBoard,
		onSuccess: () => {
			setName("");
			setQ("");
			setIsFavoritesOnly(false);
			setFrom("");
			setTo("");
			void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
		},
	});

	function submit(event: FormEvent) {
		event.preventDefault();
		create.mutate({
			name: name.trim(),
			visibility: isShared ? "shared" : "private",
			...(isSmart ? { query: buildQuery({ q, isFavoritesOnly, from, to }) } : {}),
		});
	}

	return (
		<form onSubmit={submit} aria-label={boardNew()} className="space-y-4">
			<TextField
				label={boardNameField()}
				value={name}
				required
				maxLength={BOARD_NAME_MAX_LENGTH}
				onChange={(event) => setName(event.target.value)}
			/>
			<div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-800">
				<label className="flex items-center gap-2">
					<input
						type="checkbox"
						className="size-4 accent-accent-600"
						checked={isShared}
						onChange={(event) => setIsShared(event.target.checked)}
					/>
					{boardSharedWithEveryone()}
				</label>
				<label className="flex items-center gap-2">
					<input
						type="checkbox"
						className="size-4 accent-accent-600"
						checked={isSmart}
						onChange={(event) => setIsSmart(event.target.checked)}
					/>
					{boardSmartOption()}
				</label>
			</div>
			{isSmart ? (
				<fieldset className="grid gap-3 sm:grid-cols-2">
					<legend className="sr-only">{boardSavedSearch()}</legend>
					<TextField
						label={boardPromptContains()}
						value={q}
						onChange={(event) => setQ(event.target.value)}
					/>
					<label className="flex items-center gap-2 self-end pb-3 text-sm text-slate-800">
						<input
							type="checkbox"
							className="size-4 accent-accent-600"
							checked={isFavoritesOnly}
							onChange={(event) => setIsFavoritesOnly(event.target.checked)}
						/>
						{boardFavouritesOnly()}
					</label>
					<TextField
						label={boardFrom()}
						type="date"
						value={from}
						onChange={(event) => setFrom(event.target.value)}
					/>
					<TextField
						label={boardTo()}
						type="date"
						value={to}
						onChange={(event) => setTo(event.target.value)}
					/>
				</fieldset>
			) : null}
			<AlertMessage message={create.isError ? create.error.message : null} />
			<Button type="submit" size="sm" isBusy={create.isPending} disabled={!name.trim()}>
				{boardMake()}
			</Button>
		</form>
	);
}
