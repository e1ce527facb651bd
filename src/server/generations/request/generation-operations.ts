import { MAX_PROMPT_LENGTH } from "../../../shared/core/constants";
import { CreateGenerationRequestSchema } from "../../../shared/generations/create-generation-request";
import { StartGenerationsAnswerSchema } from "../../../shared/generations/generation-responses";
import {
	ActiveGenerationsQuerySchema,
	ActiveGenerationsSchema,
	DeleteQuerySchema,
	GenerationFamilyQuerySchema,
	GenerationFamilySchema,
	GenerationIdsRequestSchema,
	GenerationPageSchema,
	GenerationSchema,
	ListGenerationsQuerySchema,
	PollGenerationQuerySchema,
	PollResponseSchema,
	SetFavoriteRequestSchema,
} from "../../../shared/generations/generations";
import {
	BulkDeleteResponseSchema,
	DeleteGenerationResponseSchema,
	SetFavoriteResponseSchema,
} from "../../../shared/history/history-responses";
import {
	CHILD_EXAMPLE,
	GENERATION_EXAMPLE,
	GENERATION_ID,
	MODEL_EXAMPLE,
	RUN_ID,
	SETTINGS_EXAMPLE,
} from "../../http/api-examples";
import type { ApiOperation, Parameter } from "../../http/api-operations";

const ID_PARAMETER: Parameter = {
	name: "id",
	description: "The generation's id.",
	example: GENERATION_ID,
};

const IDEMPOTENCY_KEY_HEADER = {
	name: "Idempotency-Key",
	description:
		"Any unique string (a UUID, say), up to 255 characters. The same key with the same request within 24 hours answers with the generation it made, which counts once against the quotas; with another request it answers 422.",
	example: "5c0e3f58-98f7-4a8e-9a2e-7b1a1b5f1c11",
	schema: { type: "string", minLength: 1, maxLength: 255 },
};

/**
 * The public API's generation routes and their files': the entries that
 * generations/request/generation-routes.ts and generations/files/file-routes.ts take their access
 * from.
 */
export const GENERATION_OPERATIONS = {
	createGeneration: {
		id: "createGeneration",
		method: "post",
		path: "/api/generations",
		summary: "Start a generation",
		description: `Queues a generation and answers at once; poll \`pollingUrl\` until it is completed or failed. The prompt is 1 to ${MAX_PROMPT_LENGTH} characters. To make images from an image, name it in \`reference\` (an upload of yours, or an image of one of your generations, counted from 0) with an \`action\`: \`vary-subtle\` and \`vary-strong\` keep the parent's prompt, ratio and model unless you name others, with a new seed; \`upscale\` makes one image \`factor\` (2 or 4) times larger, on the model you name, else the parent's, else the first that offers the factor; \`edit\` (the default with a reference) needs a prompt and takes \`strength\` where the model honours one (\`referenceStrength\` in \`GET /api/models\`). \`edit-region\` repaints the part of the reference a \`mask\` covers (an upload of yours: a PNG of the reference's pixel size, white where it may change, black where it must stay, grey for a soft edge, an alpha channel multiplying it) and \`expand\` paints beyond its frame (\`expand\`: \`{ aspectRatio }\`, the reference centred, or \`{ left, right, top, bottom }\`, fractions of its width or height); both need a prompt, and every pixel outside the mask (or the new area) is kept: the result is the model's image laid over the source through the feathered mask, at the source's size or the new frame's (scaled down as a whole to the model's pixel limit). The result's \`region\` gives its source, mask and frame. **Batches:** with \`variations\` (\`"all"\`, or \`{ "random": N }\`) the prompt's \`{a|b|c}\` choices make one generation per combination, or N distinct ones picked by the seed; with \`models\` (two to four ids, instead of \`model\`) the prompt is made once on each model, with the same ratio and, where the model takes one, the same seed (its negative prompt and quality only where it offers them; any other setting a model lacks answers 400 naming \`models\` and the model). Either answers \`{ success, batchId, seed, generations: [{ id, pollingUrl, prompt, model, settings }] }\`: \`seed\` is the one asked for or the one drawn, so the batch can be made again, and null when nothing in the batch follows a seed (no random picks, and no model that takes one); an \`Idempotency-Key\`'s replay answers the seed the batch's generations kept, else the asked seed that picked its variations, else null. A batch holds at most the server's \`MAX_BATCH_GENERATIONS\` (400 naming \`variations\` with the count) and is checked against the quotas as a whole: over one, nothing of it starts (429). Nested or unbalanced braces answer 400 naming \`prompt\`; without \`variations\` braces are plain text. A model that cannot take an image, edit a region (\`mask\` in \`GET /api/models\`) or expand (\`outpaint\`), a mask that is not a PNG, not the reference's size or empty, an expansion that adds nothing, a \`strength\` for a model that decides by itself how far to move from the image, or a field out of range, answers 400 naming the field; someone else's image or mask answers 404.`,
		tag: "Generations",
		access: { scopes: ["generate"], signedOutCode: "SIGN_IN_REQUIRED", needsVerifiedEmail: true },
		headers: [IDEMPOTENCY_KEY_HEADER],
		body: {
			schema: CreateGenerationRequestSchema,
			example: {
				prompt: "A lighthouse at dusk, oil painting",
				aspectRatio: "--ar 16:9",
				count: 4,
				seed: -1,
			},
		},
		success: {
			status: 201,
			answer: {
				description:
					"Queued (or, for a reused Idempotency-Key, the generation or the batch it made).",
				schema: StartGenerationsAnswerSchema,
				example: {
					success: true,
					id: GENERATION_ID,
					pollingUrl: `/api/generations/${GENERATION_ID}/status`,
					model: MODEL_EXAMPLE,
					settings: SETTINGS_EXAMPLE,
				},
			},
		},
		errors: [400, 404, 422],
	},
	pollGeneration: {
		id: "pollGeneration",
		method: "get",
		path: "/api/generations/{id}/status",
		summary: "Poll a generation",
		description:
			"Answers at once when the generation is finished or differs from the answer whose `version` is `after`, else when it changes or after `wait` milliseconds. Send each answer's `version` back as `after`: a change that came between two polls is then answered at once.",
		tag: "Generations",
		access: { scopes: ["generate", "read"] },
		pathParameters: [ID_PARAMETER],
		query: PollGenerationQuerySchema,
		success: {
			status: 200,
			answer: {
				description:
					"Its status; `results` are the image URLs once completed. While it is unfinished, `progress` says where it is: `stage` (`queued` waiting in Atelier's queue, with `position` the number of queued generations that start before it, or in the provider's own queue with the provider's position; `starting`; `running`; `saving` its images), and where the provider reports them `percent` of the whole generation (never decreasing), `step` of `steps`, and `previewUrl`, the latest preview frame (an image URL, gone once the generation finishes). Unknown fields are null; `progress` is null once the generation has finished. A change of any of them answers a waiting poll at once.",
				schema: PollResponseSchema,
				example: {
					status: "running",
					results: [],
					message: null,
					progress: {
						stage: "running",
						position: null,
						percent: 40,
						step: 12,
						steps: 30,
						previewUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/preview-3.webp`,
					},
					model: MODEL_EXAMPLE,
					settings: SETTINGS_EXAMPLE,
					version: "c2q1Fh0sVb8kXw3A",
				},
			},
		},
		errors: [404],
	},
	streamGenerationEvents: {
		id: "streamGenerationEvents",
		method: "get",
		path: "/api/generations/events",
		summary: "Follow your generations as they change",
		description:
			"Server-Sent Events, one stream for all of your queued and running generations, wherever they were started: a web page keeps one open instead of polling each generation. `event: active` (data `{ \"ids\": [...] }`) lists the ids still queued or running, at the start and whenever they change. `event: generation` (its `id:` field the generation's id) carries exactly what `GET /api/generations/{id}/status` answers for it, whenever it changes: a new status at once, progress and queue position at most about four times a second, and its final answer when it completes or fails. A comment every 15 seconds keeps the connection alive. The stream ends after 5 minutes, or as soon as it is found (within 30 seconds) that the session or token no longer lets you in; reconnect (an EventSource does so by itself, after the `retry:` it was sent), and the new stream starts with every generation's current answer.",
		tag: "Generations",
		access: { scopes: ["generate", "read"] },
		success: {
			status: 200,
			answer: { description: "An event stream.", mediaType: "text/event-stream" },
		},
	},
	listGenerations: {
		id: "listGenerations",
		method: "get",
		path: "/api/generations",
		summary: "List the history",
		description:
			"Newest first, one cursor page at a time; `nextCursor` asks for the next page. `batch` lists the generations one submission started together (a generation's `batchId`). Only the caller's own generations, the administrator's tokens too: `owner`, the filter by person, is the administrator's in their signed-in browser, and answers 400 to a token.",
		tag: "History",
		access: { scopes: ["read"] },
		query: ListGenerationsQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "One page of generations.",
				schema: GenerationPageSchema,
				example: { items: [GENERATION_EXAMPLE], nextCursor: null, total: 1, today: 1 },
			},
		},
		errors: [400],
	},
	listActiveGenerations: {
		id: "listActiveGenerations",
		method: "get",
		path: "/api/generations/active",
		summary: "List the generations still running",
		description:
			"Your queued and running generations, oldest first. With `after` set to the last answer's `version`, waits up to `wait` milliseconds for a change.",
		tag: "History",
		access: { scopes: ["read"] },
		query: ActiveGenerationsQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "How many are queued or running, each with what is happening to it.",
				schema: ActiveGenerationsSchema,
				example: {
					count: 1,
					items: [
						{
							id: GENERATION_ID,
							status: "running",
							progress: {
								stage: "running",
								position: null,
								percent: null,
								step: 12,
								steps: 30,
								previewUrl: null,
							},
						},
					],
					version: "kq3Xv0uQ2mZcYb1e",
				},
			},
		},
	},
	getGenerationFamily: {
		id: "getGenerationFamily",
		method: "get",
		path: "/api/generations/{id}/family",
		summary: "Get a generation's family",
		description:
			"What it was made from and what was made from it: `parent` is null when it was made from a prompt or an upload, or when that generation was deleted (its own `parent` still names it, with `exists: false`); `children` are newest first, at most 50. With `imageIndex`, `children` are only those made from that image (each child's `parent.imageIndex`); an index the generation has no image at answers 400 naming `imageIndex`.",
		tag: "History",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		query: GenerationFamilyQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "Its parent and its children, each as the history lists it.",
				schema: GenerationFamilySchema,
				example: { parent: null, children: [CHILD_EXAMPLE] },
			},
		},
		errors: [400, 404],
	},
	getGeneration: {
		id: "getGeneration",
		method: "get",
		path: "/api/generations/{id}",
		summary: "Get a generation",
		tag: "History",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		success: {
			status: 200,
			answer: {
				description: "The generation with its images.",
				schema: GenerationSchema,
				example: GENERATION_EXAMPLE,
			},
		},
		errors: [404],
	},
	setFavorite: {
		id: "setFavorite",
		method: "put",
		path: "/api/generations/{id}/favorite",
		summary: "Star or unstar a generation",
		tag: "History",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		body: { schema: SetFavoriteRequestSchema, example: { favorite: true } },
		success: {
			status: 200,
			answer: {
				description: "The star as it now is.",
				schema: SetFavoriteResponseSchema,
				example: { success: true, favorite: true },
			},
		},
		errors: [400, 404],
	},
	downloadImage: {
		id: "downloadImage",
		method: "get",
		path: "/api/generations/{id}/images/{index}/download",
		summary: "Download one image",
		description: "The original, named from the prompt, with its recipe written into the file.",
		tag: "Images",
		access: { scopes: ["read"] },
		pathParameters: [
			ID_PARAMETER,
			{ name: "index", description: "The image's position, from 0.", example: "0" },
		],
		success: {
			status: 200,
			answer: { description: "The image file.", mediaType: "image/*" },
		},
		errors: [404],
	},
	archiveGeneration: {
		id: "archiveGeneration",
		method: "get",
		path: "/api/generations/{id}/archive",
		summary: "Download a generation's images as a ZIP",
		tag: "Images",
		access: { scopes: ["read"] },
		pathParameters: [ID_PARAMETER],
		success: { status: 200, answer: { description: "A ZIP file.", mediaType: "application/zip" } },
		errors: [404],
	},
	archiveGenerations: {
		id: "archiveGenerations",
		method: "post",
		path: "/api/generations/archive",
		summary: "Download several generations as one ZIP",
		tag: "Images",
		access: { scopes: ["read"] },
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: { status: 200, answer: { description: "A ZIP file.", mediaType: "application/zip" } },
		errors: [400, 404],
	},
	readImage: {
		id: "readImage",
		method: "get",
		path: "/api/images/generations/{id}/{run}/{file}",
		summary: "An image as the screens show it",
		description:
			"The URLs in a generation's `images` and a poll's `results`: the original, the display copy or the thumbnail; and a running generation's `progress.previewUrl`, its latest preview frame.",
		tag: "Images",
		access: { scopes: ["read"] },
		pathParameters: [
			ID_PARAMETER,
			{ name: "run", description: "The run that stored it.", example: RUN_ID },
			{ name: "file", description: "The file's name.", example: "0.png" },
		],
		success: { status: 200, answer: { description: "The image.", mediaType: "image/*" } },
		errors: [404],
	},
	deleteGeneration: {
		id: "deleteGeneration",
		method: "delete",
		path: "/api/generations/{id}",
		summary: "Delete a generation",
		description:
			"Moves it to the Trash, where it stays for TRASH_DAYS days (`permanent` false in the answer); a generation still queued or running is stopped and kept as failed. With `permanent=true`, or when the server keeps no Trash (TRASH_DAYS=0), removes it and its images for good. A generation already in the Trash answers 404 here: see `POST /api/trash/delete`.",
		tag: "History",
		access: { scopes: ["delete"] },
		pathParameters: [ID_PARAMETER],
		query: DeleteQuerySchema,
		success: {
			status: 200,
			answer: {
				description: "Deleted: to the Trash, or for good.",
				schema: DeleteGenerationResponseSchema,
				example: { success: true, permanent: false },
			},
		},
		errors: [400, 404],
	},
	deleteGenerations: {
		id: "deleteGenerations",
		method: "post",
		path: "/api/generations/bulk-delete",
		summary: "Delete several generations",
		description:
			"All or none: up to 200 ids, each the caller's own and not in the Trash. To the Trash, or for good as `DELETE /api/generations/{id}` says.",
		tag: "History",
		access: { scopes: ["delete"] },
		query: DeleteQuerySchema,
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were deleted, and whether for good.",
				schema: BulkDeleteResponseSchema,
				example: { success: true, deleted: 1, permanent: false },
			},
		},
		errors: [400, 404],
	},
} as const satisfies Record<string, ApiOperation>;
