import { GenerationIdsRequestSchema } from "../../shared/generations/generations";
import {
	BOARD_NAME_MAX_LENGTH,
	type Board,
	BoardListSchema,
	BoardMembershipResponseSchema,
	BoardSchema,
	CreateBoardRequestSchema,
	DeleteBoardQuerySchema,
	DeleteBoardResponseSchema,
	MAX_BOARDS_PER_PERSON,
	UpdateBoardRequestSchema,
} from "../../shared/history/boards";
import { GENERATION_ID, RUN_ID } from "../http/api-examples";
import type { ApiOperation, Parameter } from "../http/api-operations";

const BOARD_ID = "3f0c2b7e-1a4d-4c8e-9f6b-2d7a5e1c9b40";

const ID_PARAMETER: Parameter = { name: "id", description: "The board's id.", example: BOARD_ID };

const BOARD_EXAMPLE: Board = {
	id: BOARD_ID,
	name: "Lighthouses",
	kind: "board",
	visibility: "private",
	query: null,
	count: 12,
	coverUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0-thumb.webp`,
	owner: { email: "ada@example.com" },
	canChange: true,
	createdAt: "2026-11-20T09:12:00.000Z",
	updatedAt: "2026-11-27T17:40:00.000Z",
};

const CHANGE_ERRORS = [400, 404] as const;

/**
 * The public API's board routes (decision 032), which boards/boards-routes.ts and, for the ZIP,
 * generations/files/file-routes.ts take their access from: `read` sees boards, `organize`
 * changes them. A board shared with the caller is theirs to see; changing it answers 403.
 */
export const BOARD_OPERATIONS = {
	listBoards: {
		id: "listBoards",
		method: "get",
		path: "/api/boards",
		summary: "List boards",
		description:
			"Your boards, then those others share with everyone signed in, newest first: each with its count, its cover (its newest favourite's thumbnail, else its newest image's), its owner and its last change. `canChange` is false on another person's shared board.",
		tag: "Boards",
		access: { scopes: ["read"] },
		success: {
			status: 200,
			answer: {
				description: "The boards.",
				schema: BoardListSchema,
				example: { items: [BOARD_EXAMPLE] },
			},
		},
	},
	createBoard: {
		id: "createBoard",
		method: "post",
		path: "/api/boards",
		summary: "Make a board",
		description: `A name of 1 to ${BOARD_NAME_MAX_LENGTH} characters; \`visibility\` private (the default) or shared with everyone signed in on this server. A \`query\` makes a smart board: a saved search of your history with the history's filters (\`q\`, \`aspectRatio\`, \`model\`, \`favorites\`, and the days \`from\` and \`to\`), always current. A person keeps at most ${MAX_BOARDS_PER_PERSON} boards.`,
		tag: "Boards",
		access: { scopes: ["organize"] },
		body: {
			schema: CreateBoardRequestSchema,
			example: { name: "Lighthouses", visibility: "private" },
		},
		success: {
			status: 201,
			answer: { description: "The board.", schema: BoardSchema, example: BOARD_EXAMPLE },
		},
		errors: [400],
	},
	updateBoard: {
		id: "updateBoard",
		method: "patch",
		path: "/api/boards/{id}",
		summary: "Rename a board, share it, or change a smart board's search",
		description:
			"Only its owner and the administrator: another person's shared board answers 403, a board not shared with you 404.",
		tag: "Boards",
		access: { scopes: ["organize"] },
		pathParameters: [ID_PARAMETER],
		body: { schema: UpdateBoardRequestSchema, example: { name: "Lighthouses at dusk" } },
		success: {
			status: 200,
			answer: {
				description: "The board as it now is.",
				schema: BoardSchema,
				example: BOARD_EXAMPLE,
			},
		},
		errors: CHANGE_ERRORS,
	},
	deleteBoard: {
		id: "deleteBoard",
		method: "delete",
		path: "/api/boards/{id}",
		summary: "Delete a board",
		description:
			"The board only, by default: its generations stay in the history. With `withGenerations=true`, the generations on it are deleted too, as a bulk delete does (a smart board's are not: 400).",
		tag: "Boards",
		access: { scopes: ["organize"] },
		pathParameters: [ID_PARAMETER],
		query: DeleteBoardQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "Deleted, with how many generations went with it.",
				schema: DeleteBoardResponseSchema,
				example: { success: true, deletedGenerations: 0 },
			},
		},
		errors: CHANGE_ERRORS,
	},
	addToBoard: {
		id: "addToBoard",
		method: "post",
		path: "/api/boards/{id}/generations",
		summary: "Put generations on a board",
		description:
			"Up to 200 ids, all or none, each a generation of the board's owner (else 404); those already on it stay. Not on a smart board (400).",
		tag: "Boards",
		access: { scopes: ["organize"] },
		pathParameters: [ID_PARAMETER],
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were added.",
				schema: BoardMembershipResponseSchema,
				example: { success: true, changed: 1 },
			},
		},
		errors: CHANGE_ERRORS,
	},
	removeFromBoard: {
		id: "removeFromBoard",
		method: "post",
		path: "/api/boards/{id}/generations/remove",
		summary: "Take generations off a board",
		description: "Up to 200 ids; they stay in the history.",
		tag: "Boards",
		access: { scopes: ["organize"] },
		pathParameters: [ID_PARAMETER],
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were on it.",
				schema: BoardMembershipResponseSchema,
				example: { success: true, changed: 1 },
			},
		},
		errors: CHANGE_ERRORS,
	},
	archiveBoard: {
		id: "archiveBoard",
		method: "get",
		path: "/api/boards/{id}/archive",
		summary: "Download a board as a ZIP",
		description:
			"What its page shows, newest first: one folder a generation with its metadata and its originals, each with its recipe, as a ZIP of several generations.",
		tag: "Boards",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		success: { status: 200, answer: { description: "A ZIP file.", mediaType: "application/zip" } },
		errors: [404],
	},
} as const satisfies Record<string, ApiOperation>;
