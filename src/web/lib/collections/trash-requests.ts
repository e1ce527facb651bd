// The Trash's requests (GET /api/trash, restore, Delete forever, Empty Trash), each wrapped once.
import type { GenerationIdsRequest } from "../../../shared/generations/generations";
import {
	RestoreResponseSchema,
	TrashDeleteResponseSchema,
	type TrashPage,
	TrashPageSchema,
} from "../../../shared/history/trash";
import { requestApi } from "../api/api-client";

/** The query key of the Trash's pages. */
export const TRASH_QUERY_KEY = ["trash"] as const;

/** One page of the Trash, newest deletion first. */
export function fetchTrashPage(
	cursor: string | undefined,
	signal?: AbortSignal,
): Promise<TrashPage> {
	const params = new URLSearchParams({ limit: "50" });
	if (cursor) params.set("cursor", cursor);
	return requestApi(`/api/trash?${params}`, TrashPageSchema, { signal });
}

/** Puts generations back from the Trash as they were: all of them, or none. */
export async function restoreGenerations(ids: readonly string[]): Promise<number> {
	const answer = await requestApi("/api/trash/restore", RestoreResponseSchema, {
		method: "POST",
		body: JSON.stringify({ ids: [...ids] } satisfies GenerationIdsRequest),
	});
	return answer.restored;
}

/** Deletes generations in the Trash for good: all of them, or none. */
export async function deleteForever(ids: readonly string[]): Promise<number> {
	const answer = await requestApi("/api/trash/delete", TrashDeleteResponseSchema, {
		method: "POST",
		body: JSON.stringify({ ids: [...ids] } satisfies GenerationIdsRequest),
	});
	return answer.deleted;
}

/** Deletes everything in one's own Trash for good. */
export async function emptyTrash(): Promise<number> {
	const answer = await requestApi("/api/trash/empty", TrashDeleteResponseSchema, {
		method: "POST",
	});
	return answer.deleted;
}
