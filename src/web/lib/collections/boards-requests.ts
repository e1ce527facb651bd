// Every call the browser makes to /api/boards, each wrapped once, for the boards screens, the
// history (Add to board) and the generator (Add new results to…). Loaded on demand only: it parses
// with zod/mini (docs/decisions/005-first-load-budget.md).

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { GenerationIdsRequest } from "../../../shared/generations/generations";
import {
	type Board,
	BoardListSchema,
	BoardMembershipResponseSchema,
	BoardSchema,
	type CreateBoardRequest,
	DeleteBoardResponseSchema,
	type UpdateBoardRequest,
} from "../../../shared/history/boards";
import { boardChangeFailed } from "../../../shared/i18n/messages";
import { requestApi } from "../api/api-client";
import { showToast } from "../ui/toast";

/** The cache key of the boards list; every change of a board or of what is on one reloads it. */
export const BOARDS_QUERY_KEY = ["boards"] as const;

function boardPath(id: string): string {
	return `/api/boards/${encodeURIComponent(id)}`;
}

/** The viewer's IANA zone: a smart board's days are the viewer's. */
function readTimeZone(): string {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
	} catch {
		return "UTC";
	}
}

export async function fetchBoards(signal?: AbortSignal): Promise<Board[]> {
	const params = new URLSearchParams({ timeZone: readTimeZone() });
	return (await requestApi(`/api/boards?${params}`, BoardListSchema, { signal })).items;
}

/** The boards the person may see: their own first, then those others share. */
export function useBoards(options: { enabled?: boolean } = {}) {
	return useQuery({
		queryKey: BOARDS_QUERY_KEY,
		queryFn: ({ signal }) => fetchBoards(signal),
		enabled: options.enabled,
	});
}

/** The person's own boards that take generations (not smart ones), for Add to board. */
export function listFillableBoards(boards: readonly Board[] | undefined): Board[] {
	return (boards ?? []).filter((board) => board.kind === "board" && board.canChange);
}

export function createBoard(request: CreateBoardRequest): Promise<Board> {
	return requestApi("/api/boards", BoardSchema, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify(request),
	});
}

export function updateBoard(id: string, request: UpdateBoardRequest): Promise<Board> {
	return requestApi(boardPath(id), BoardSchema, {
		method: "PATCH",
		headers: { "content-type": "application/json" },
		body: JSON.stringify(request),
	});
}

export async function deleteBoard(id: string, withGenerations: boolean): Promise<number> {
	const query = withGenerations ? "?withGenerations=true" : "";
	const answer = await requestApi(`${boardPath(id)}${query}`, DeleteBoardResponseSchema, {
		method: "DELETE",
	});
	return answer.deletedGenerations;
}

/** Puts generations on a board (`isRemoving`: takes them off); how many changed. */
export async function changeBoardGenerations(
	id: string,
	ids: readonly string[],
	isRemoving: boolean,
): Promise<number> {
	const path = `${boardPath(id)}/generations${isRemoving ? "/remove" : ""}`;
	const answer = await requestApi(path, BoardMembershipResponseSchema, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ ids: [...ids] } satisfies GenerationIdsRequest),
	});
	return answer.changed;
}

/** `GET /api/boards/:id/archive`: the board's ZIP, downloaded by the browser itself. */
export function buildBoardArchiveUrl(id: string): string {
	return `${boardPath(id)}/archive?${new URLSearchParams({ timeZone: readTimeZone() })}`;
}

/**
 * Add to board and Remove from board: the boards list and every history list reload after it,
 * and a toast says what happened.
 */
export function useChangeBoardGenerations() {
	const queryClient = useQueryClient();
	return useMutation({
		mutationFn: (change: {
			board: Pick<Board, "id" | "name">;
			ids: readonly string[];
			isRemoving: boolean;
		}) => changeBoardGenerations(change.board.id, change.ids, change.isRemoving),
		onSuccess: (_answer, change) => {
			const count = change.ids.length;
			const what = count === 1 ? "1 generation" : `${count} generations`;
			void showToast(
				"success",
				change.isRemoving
					? `Removed ${what} from ${change.board.name}`
					: `Added ${what} to ${change.board.name}`,
			);
		},
		onError: () => void showToast("error", boardChangeFailed()),
		onSettled: () => {
			void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
			void queryClient.invalidateQueries({ queryKey: ["generations", "list"] });
		},
	});
}
