import {
	GenerationIdsRequestSchema,
	TrashQuerySchema,
} from "../../../shared/generations/generations";
import {
	RestoreResponseSchema,
	TrashDeleteResponseSchema,
	TrashPageSchema,
} from "../../../shared/history/trash";
import { GENERATION_EXAMPLE, GENERATION_ID } from "../../http/api-examples";
import type { ApiOperation, Schema } from "../../http/api-operations";

/**
 * A Trash route that acts on chosen generations (`POST` of their ids, `delete` scope): all or none,
 * each in the caller's Trash.
 */
function batchOperation(operation: {
	id: string;
	path: string;
	summary: string;
	/** What it does, the first sentence of its description. */
	does: string;
	answer: { description: string; schema: Schema; example: unknown };
}) {
	const { does, answer, ...named } = operation;
	return {
		...named,
		method: "post",
		description: `${does} All or none: up to 200 ids, each in the caller's Trash.`,
		tag: "Trash",
		access: { scopes: ["delete"] },
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: { status: 200, answer },
		errors: [400, 404],
	} as const satisfies ApiOperation;
}

/**
 * The public API's Trash routes, which generations/trash/trash-routes.ts takes their access
 * from: `read` to see, `delete` for the rest.
 */
export const TRASH_OPERATIONS = {
	listTrash: {
		id: "listTrash",
		method: "get",
		path: "/api/trash",
		summary: "List the Trash",
		description:
			"The caller's deleted generations, newest deletion first, each as the history shows it with `deletedAt` and `purgeAt` (when it is removed for good). Send `nextCursor` back as `cursor` for the next page. Nothing in the Trash shows anywhere else: not in the history, its searches and counts, families, archives or quotas; `GET /api/generations/{id}` shows one to its owner with `deletedAt`.",
		tag: "Trash",
		access: { scopes: ["read"] },
		query: TrashQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "One page of the Trash.",
				schema: TrashPageSchema,
				example: {
					items: [
						{
							...GENERATION_EXAMPLE,
							deletedAt: "2026-11-20T10:00:00.000Z",
							purgeAt: "2026-12-20T10:00:00.000Z",
						},
					],
					nextCursor: null,
				},
			},
		},
		errors: [400],
	},
	restoreTrash: batchOperation({
		id: "restoreTrash",
		path: "/api/trash/restore",
		summary: "Restore from the Trash",
		does: "Puts generations back as they were: the same ids, favourites, family links and boards.",
		answer: {
			description: "How many were restored.",
			schema: RestoreResponseSchema,
			example: { success: true, restored: 1 },
		},
	}),
	deleteFromTrash: batchOperation({
		id: "deleteFromTrash",
		path: "/api/trash/delete",
		summary: "Delete forever",
		does: "Removes generations in the Trash and their images for good.",
		answer: {
			description: "How many were deleted.",
			schema: TrashDeleteResponseSchema,
			example: { success: true, deleted: 1 },
		},
	}),
	emptyTrash: {
		id: "emptyTrash",
		method: "post",
		path: "/api/trash/empty",
		summary: "Empty the Trash",
		description: "Removes everything in the caller's Trash, and its images, for good.",
		tag: "Trash",
		access: { scopes: ["delete"] },
		success: {
			status: 200,
			answer: {
				description: "How many were deleted.",
				schema: TrashDeleteResponseSchema,
				example: { success: true, deleted: 3 },
			},
		},
	},
} as const satisfies Record<string, ApiOperation>;
