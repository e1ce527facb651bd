import { GenerationIdsRequestSchema, TrashQuerySchema } from "../../../shared/generations";
import {
	RestoreResponseSchema,
	TrashDeleteResponseSchema,
	TrashPageSchema,
} from "../../../shared/trash";
import { GENERATION_EXAMPLE, GENERATION_ID } from "../../http/api-examples";
import type { ApiOperation } from "../../http/api-operations";

/**
 * The public API's Trash routes, which generations/request/trash-routes.ts takes their access
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
	restoreTrash: {
		id: "restoreTrash",
		method: "post",
		path: "/api/trash/restore",
		summary: "Restore from the Trash",
		description:
			"Puts generations back as they were: the same ids, favourites, family links and boards. All or none: up to 200 ids, each in the caller's Trash.",
		tag: "Trash",
		access: { scopes: ["delete"] },
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were restored.",
				schema: RestoreResponseSchema,
				example: { success: true, restored: 1 },
			},
		},
		errors: [400, 404],
	},
	deleteFromTrash: {
		id: "deleteFromTrash",
		method: "post",
		path: "/api/trash/delete",
		summary: "Delete forever",
		description:
			"Removes generations in the Trash and their images for good. All or none: up to 200 ids, each in the caller's Trash.",
		tag: "Trash",
		access: { scopes: ["delete"] },
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were deleted.",
				schema: TrashDeleteResponseSchema,
				example: { success: true, deleted: 1 },
			},
		},
		errors: [400, 404],
	},
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
