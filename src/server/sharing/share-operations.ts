import { API_TOKEN_SCOPES } from "../../shared/account/api-tokens";
import {
	CreatedShareSchema,
	CreateShareRequestSchema,
	ReportedShareSchema,
	ReportShareRequestSchema,
	SharedPageQuerySchema,
	SharedPageSchema,
	ShareListSchema,
	ShareSchema,
} from "../../shared/history/sharing";
import { GENERATION_ID } from "../http/api-examples";
import type { ApiOperation, Parameter } from "../http/api-operations";

const SHARE_ID = "2d6f1c84-0b7e-4f0a-9e55-3c1b7a9d4e21";
const TOKEN = "q3X9v0b2Jr7mK1sT5wYc8eLz4nHd6fPa0uQg2iRt7xE";

const SHARE_EXAMPLE = {
	id: SHARE_ID,
	target: { generationId: GENERATION_ID, imageIndex: null, boardId: null },
	prompt: "A lighthouse at dusk, oil painting",
	boardName: null,
	originals: false,
	showPrompt: true,
	state: "live",
	createdAt: "2026-01-15T10:00:00.000Z",
	expiresAt: "2026-01-22T10:00:00.000Z",
	views: 3,
	lastViewedAt: "2026-01-16T08:12:00.000Z",
};

const CREATED_EXAMPLE = {
	...SHARE_EXAMPLE,
	views: 0,
	lastViewedAt: null,
	token: TOKEN,
	url: `https://atelier.example.com/s/${TOKEN}`,
};

const ID_PARAMETER: Parameter = { name: "id", description: "The link's id.", example: SHARE_ID };
const TOKEN_PARAMETER: Parameter = {
	name: "token",
	description: "The link's token, as its address `/s/<token>` carries it.",
	example: TOKEN,
};

/**
 * The routes of shared links (sharing/share-routes.ts and sharing/shared-page-routes.ts): the
 * owner's, with the `share` scope (listing with `read` too), and the link's own, open to anyone
 * the server's SHARING lets in.
 */
export const SHARE_OPERATIONS = {
	createShare: {
		id: "createShare",
		method: "post",
		path: "/api/shares",
		summary: "Share a generation, one of its images, or a board",
		description:
			"Makes a link with a new random token (256 bits), unrelated to what it shows; a revoked token is never made live again. `target` is `{ generationId, imageIndex? }`, your own finished generation, or `{ boardId }`, your own board: its page shows the board as it is now, newest first, a page at a time, without what is in the Trash (a board shared with you to look at cannot be shared, 403 `BOARD_READ_ONLY`; deleting the board ends the link, 410; where the server checks images, a public link to a board is refused, 400). `expires` is `1h`, `1d`, `7d`, `30d` or `never` (refused where the server sets a longest expiry, SHARE_MAX_DAYS). `originals: false` serves display copies only; `showPrompt: false` shows no prompt or settings, and every file served through the link carries no recipe. The prompt must pass the server's blocklist (400 `PROMPT_BLOCKED`); where the server checks images, a public link for flagged images is refused (422 `SHARE_FLAGGED`). The answer's `url` and `token` are shown once: the server keeps only a hash.",
		tag: "Sharing",
		access: { scopes: ["share"] },
		body: {
			schema: CreateShareRequestSchema,
			example: {
				target: { generationId: GENERATION_ID },
				expires: "7d",
				originals: false,
				showPrompt: true,
			},
		},
		success: {
			status: 201,
			answer: { description: "The link.", schema: CreatedShareSchema, example: CREATED_EXAMPLE },
		},
		errors: [400, 404, 422],
	},
	listShares: {
		id: "listShares",
		method: "get",
		path: "/api/shares",
		summary: "Your shared links",
		description:
			"Newest first, each with its state (`live`, `expired`, `revoked` or `hidden`), its `views` and `lastViewedAt`. A link's address is not listed: it was shown once, when it was made.",
		tag: "Sharing",
		access: { scopes: ["share", "read"] },
		success: {
			status: 200,
			answer: {
				description: "The links.",
				schema: ShareListSchema,
				example: { items: [SHARE_EXAMPLE] },
			},
		},
	},
	revokeShare: {
		id: "revokeShare",
		method: "delete",
		path: "/api/shares/{id}",
		summary: "Revoke a shared link",
		description: "The link ends at once: its page answers 410. Revoking it again changes nothing.",
		tag: "Sharing",
		access: { scopes: ["share"] },
		pathParameters: [ID_PARAMETER],
		success: {
			status: 200,
			answer: {
				description: "The link, revoked.",
				schema: ShareSchema,
				example: { ...SHARE_EXAMPLE, state: "revoked" },
			},
		},
		errors: [404],
	},
	rotateShare: {
		id: "rotateShare",
		method: "post",
		path: "/api/shares/{id}/rotate",
		summary: "Replace a link's address",
		description:
			"A new link with the same target, options and end; the old address answers 410 from now on.",
		tag: "Sharing",
		access: { scopes: ["share"] },
		pathParameters: [ID_PARAMETER],
		success: {
			status: 201,
			answer: {
				description: "The new link.",
				schema: CreatedShareSchema,
				example: CREATED_EXAMPLE,
			},
		},
		errors: [400, 404],
	},
	readSharedPage: {
		id: "readSharedPage",
		method: "get",
		path: "/api/s/{token}",
		summary: "What a shared link shows",
		description:
			"Anyone may call it where the server's links are public (where they are for signed-in people, a session or token is needed). The images' addresses are under the link; `prompt` and `settings` (and each image's `prompt`) are null when the link hides them. A board's link has `board`: its name and the cursors of the pages around this one, `?after=<olderCursor>` for older generations and `?before=<newerCursor>` for newer ones (24 generations a page, newest first). Each call counts a view. An ended link answers 410, one the administrator took down 451, an unknown one 404.",
		tag: "Sharing",
		access: { scopes: API_TOKEN_SCOPES, isOpen: true },
		pathParameters: [TOKEN_PARAMETER],
		query: SharedPageQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "The shared page's data.",
				schema: SharedPageSchema,
				example: {
					images: [
						{
							url: `/s/${TOKEN}/images/0/display`,
							width: 1024,
							height: 576,
							originalUrl: null,
							prompt: "A lighthouse at dusk, oil painting",
						},
					],
					prompt: "A lighthouse at dusk, oil painting",
					settings: {
						model: "Offline engine",
						aspectRatio: "--ar 16:9",
						seed: 1234567,
						negativePrompt: null,
					},
					createdAt: "2026-01-15T09:30:00.000Z",
					expiresAt: "2026-01-22T10:00:00.000Z",
					reportUrl: `/api/s/${TOKEN}/report`,
					board: null,
				},
			},
		},
		errors: [400, 404, 410, 451],
	},
	reportShare: {
		id: "reportShare",
		method: "post",
		path: "/api/s/{token}/report",
		summary: "Report a shared page",
		description:
			"Sends the reason to the server's administrator, who may take the page down. A visitor may send a few reports an hour (429 beyond). A plain HTML form may post `reason` too; it is sent back to the page.",
		tag: "Sharing",
		access: { scopes: API_TOKEN_SCOPES, isOpen: true },
		pathParameters: [TOKEN_PARAMETER],
		body: {
			schema: ReportShareRequestSchema,
			example: { reason: "This shows a real person without their consent." },
		},
		success: {
			status: 201,
			answer: {
				description: "Reported.",
				schema: ReportedShareSchema,
				example: { success: true },
			},
		},
		errors: [400, 404, 410, 451],
	},
} as const satisfies Record<string, ApiOperation>;
