import type { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../../shared/constants";
import { ErrorEnvelopeSchema } from "../../shared/generation-responses";
import {
	ActiveGenerationsQuerySchema,
	ActiveGenerationsSchema,
	CreateGenerationRequestSchema,
	CreateGenerationResponseSchema,
	GenerationFamilyQuerySchema,
	GenerationFamilySchema,
	GenerationIdsRequestSchema,
	GenerationPageSchema,
	GenerationSchema,
	ListGenerationsQuerySchema,
	PollGenerationQuerySchema,
	PollResponseSchema,
	SetFavoriteRequestSchema,
} from "../../shared/generations";
import {
	BulkDeleteResponseSchema,
	DeleteGenerationResponseSchema,
	SetFavoriteResponseSchema,
} from "../../shared/history-responses";
import {
	MAX_UPLOAD_BYTES,
	MAX_UPLOAD_PIXELS,
	UNUSED_UPLOAD_MS,
	UploadResponseSchema,
} from "../../shared/image-input";
import { ModelsResponseSchema } from "../../shared/models";
import { UploadFormSchema } from "../../shared/upload-form";
import { MAX_UNUSED_UPLOADS, UPLOAD_RATE_LIMITS } from "../../shared/upload-rules";
import type { RouteAccess } from "./app-env";

/** Any zod schema, classic or mini: the document reads both through z.toJSONSchema. */
type Schema = z.core.$ZodType;

type Parameter = { name: string; description: string; example: string };

/** What an answer carries: JSON of a schema, or a file of a media type. */
type Answer =
	| { description: string; schema: Schema; example: unknown }
	| { description: string; mediaType: string };

/**
 * One route of the public API: how it is called, who may call it, the schemas that check its
 * input (the same ones its handler parses with) and what it answers. generations/generation-routes.ts
 * guards each route with its entry's `access`, and the OpenAPI document (openapi-document.ts)
 * is built from these entries, so the document cannot leave a route out or misstate its scope.
 */
export type ApiOperation = {
	id: string;
	method: "get" | "post" | "put" | "delete";
	/** OpenAPI's form, `{id}` for a parameter. */
	path: string;
	summary: string;
	description?: string;
	tag: "Generations" | "History" | "Images" | "Models" | "Uploads";
	access: RouteAccess;
	pathParameters?: readonly Parameter[];
	headers?: readonly (Parameter & { schema: Record<string, unknown> })[];
	query?: Schema;
	/** JSON with an example, or a multipart form (a file upload), which has none in JSON. */
	body?:
		| { schema: Schema; example: unknown }
		| { schema: Schema; mediaType: "multipart/form-data" };
	success: { status: 200 | 201; answer: Answer };
	/** Error answers beyond 401, 403, 429 and 500, which every token route may give. */
	errors?: readonly (400 | 404 | 413 | 422)[];
};

const GENERATION_ID = "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d";
const RUN_ID = "6d1c3e9a-57f2-4ab4-9a64-97c0c3a0b0e1";
const SETTINGS_EXAMPLE = { count: 4, seed: 1234567, negativePrompt: null, quality: null };
const MODEL_EXAMPLE = { id: "local", label: "Offline engine" };
const IMAGE_EXAMPLE = {
	url: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0.png`,
	width: 1024,
	height: 1024,
	displayUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0-display.webp`,
	displayWidth: 1024,
	displayHeight: 1024,
	thumbnailUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0-thumb.webp`,
	thumbnailWidth: 256,
	thumbnailHeight: 256,
};
const GENERATION_EXAMPLE = {
	id: GENERATION_ID,
	prompt: "A lighthouse at dusk, oil painting",
	aspect_ratio: "--ar 16:9",
	status: "completed",
	error: null,
	images: [IMAGE_EXAMPLE],
	created_at: "2026-01-15T09:30:00.000Z",
	completed_at: "2026-01-15T09:30:12.000Z",
	api_id: "local-1",
	polling_url: `/api/generations/${GENERATION_ID}/status`,
	user_id: "JkqMnS2yq1vX0b9d",
	is_favorite: false,
	model: MODEL_EXAMPLE,
	settings: SETTINGS_EXAMPLE,
	progress: null,
	parent: null,
	childrenCount: 1,
};
const CHILD_ID = "3b9d6f0e-1c2a-4e5f-8a7b-6c5d4e3f2a1b";
const CHILD_EXAMPLE = {
	...GENERATION_EXAMPLE,
	id: CHILD_ID,
	images: [
		{
			...IMAGE_EXAMPLE,
			url: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0.jpg`,
			width: 2048,
			height: 1152,
			displayUrl: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0-display.webp`,
			displayWidth: 1600,
			displayHeight: 900,
			thumbnailUrl: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0-thumb.webp`,
		},
	],
	created_at: "2026-01-15T09:31:00.000Z",
	completed_at: "2026-01-15T09:31:03.000Z",
	api_id: "local-2",
	polling_url: `/api/generations/${CHILD_ID}/status`,
	settings: { ...SETTINGS_EXAMPLE, count: 1 },
	parent: { generationId: GENERATION_ID, imageIndex: 0, action: "upscale", exists: true },
	childrenCount: 0,
};

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

export const GENERATION_OPERATIONS = {
	listModels: {
		id: "listModels",
		method: "get",
		path: "/api/models",
		summary: "The models offered",
		description:
			"Anyone may call it; with a token or session, `preferredModelId` is the model of the caller's latest generation. What each model does with an image: `imageInput` (Vary and Edit), `referenceStrength` (whether it honours a start's `strength`; false where the model decides by itself how far to move from the image, as OpenAI's edits do, and a `strength` sent to it answers 400), `upscale` (its factors) and `upscaleResamples` (its upscale only resamples the image, as the offline engine's Lanczos does: larger, with no added detail).",
		tag: "Models",
		access: { scopes: ["generate", "read", "delete"], isOpen: true },
		success: {
			status: 200,
			answer: {
				description: "The models and the default one.",
				schema: ModelsResponseSchema,
				example: {
					models: [
						{
							id: "local",
							label: "Offline engine",
							description:
								"Generative art drawn on this server, offline and free. Upscale resamples (Lanczos): the image gets larger but gains no detail.",
							pricePerImage: null,
							ratios: ["--ar 1:1", "--ar 3:2", "--ar 16:9"],
							counts: [1, 2, 3, 4],
							seed: true,
							negativePrompt: true,
							qualities: [],
							textToImage: true,
							imageInput: true,
							referenceStrength: true,
							upscale: [2, 4],
							upscaleResamples: true,
						},
						{
							id: "gpt-image",
							label: "GPT image",
							description: null,
							pricePerImage: 0.04,
							ratios: ["--ar 1:1", "--ar 3:2", "--ar 2:3"],
							counts: [1, 2, 3, 4],
							seed: false,
							negativePrompt: false,
							qualities: ["low", "medium", "high"],
							textToImage: true,
							imageInput: true,
							referenceStrength: false,
							upscale: [],
							upscaleResamples: false,
						},
					],
					defaultModelId: "local",
					preferredModelId: null,
				},
			},
		},
	},
	createGeneration: {
		id: "createGeneration",
		method: "post",
		path: "/api/generations",
		summary: "Start a generation",
		description: `Queues a generation and answers at once; poll \`pollingUrl\` until it is completed or failed. The prompt is 1 to ${MAX_PROMPT_LENGTH} characters. To make images from an image, name it in \`reference\` (an upload of yours, or an image of one of your generations, counted from 0) with an \`action\`: \`vary-subtle\` and \`vary-strong\` keep the parent's prompt, ratio and model unless you name others, with a new seed; \`upscale\` makes one image \`factor\` (2 or 4) times larger, on the model you name, else the parent's, else the first that offers the factor; \`edit\` (the default with a reference) needs a prompt and takes \`strength\` where the model honours one (\`referenceStrength\` in \`GET /api/models\`). A model that cannot take an image, a \`strength\` for a model that decides by itself how far to move from the image, or a field out of range, answers 400 naming the field; someone else's image answers 404.`,
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
				description: "Queued (or, for a reused Idempotency-Key, the generation it made).",
				schema: CreateGenerationResponseSchema,
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
	listGenerations: {
		id: "listGenerations",
		method: "get",
		path: "/api/generations",
		summary: "List the history",
		description:
			"Newest first, one cursor page at a time; `nextCursor` asks for the next page. Only the caller's own generations, the administrator's tokens too: `owner`, the filter by person, is the administrator's in their signed-in browser, and answers 400 to a token.",
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
		description: "Removes it and its images; a generation still running is stopped.",
		tag: "History",
		access: { scopes: ["delete"] },
		pathParameters: [ID_PARAMETER],
		success: {
			status: 200,
			answer: {
				description: "Deleted.",
				schema: DeleteGenerationResponseSchema,
				example: { success: true },
			},
		},
		errors: [404],
	},
	deleteGenerations: {
		id: "deleteGenerations",
		method: "post",
		path: "/api/generations/bulk-delete",
		summary: "Delete several generations",
		description: "All or none: up to 200 ids, each the caller's own.",
		tag: "History",
		access: { scopes: ["delete"] },
		body: { schema: GenerationIdsRequestSchema, example: { ids: [GENERATION_ID] } },
		success: {
			status: 200,
			answer: {
				description: "How many were deleted.",
				schema: BulkDeleteResponseSchema,
				example: { success: true, deleted: 1 },
			},
		},
		errors: [400, 404],
	},
} as const satisfies Record<string, ApiOperation>;

/** Every error answer's body. */
export const ERROR_ENVELOPE_SCHEMA: Schema = ErrorEnvelopeSchema;

const UPLOAD_ID = "01960b7e-5d2a-7c41-9b3e-4f2a6c8d1e09";

/**
 * The routes of uploaded images (uploads/upload-routes.ts): a reference image to start a
 * generation from, private to the person who uploaded it.
 */
export const UPLOAD_OPERATIONS = {
	uploadImage: {
		id: "uploadImage",
		method: "post",
		path: "/api/uploads",
		summary: "Upload a reference image",
		description: `One file in the multipart field \`image\`: a PNG, JPEG or WebP image (told by its content, not its name), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB and ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels. It is stored upright, re-encoded without its metadata (EXIF, GPS position), visible only to you; name its \`uploadId\` as a generation's \`reference\`. An upload no generation uses is removed after ${UNUSED_UPLOAD_MS / 3_600_000} hours, and a person keeps at most ${MAX_UNUSED_UPLOADS} unused uploads (429 beyond). A person may send at most ${UPLOAD_RATE_LIMITS.map(({ limit, period }) => `${limit} uploads ${period}`).join(" and ")}, each counted whether or not its file is an image that decodes (429 with \`Retry-After\` beyond).`,
		tag: "Uploads",
		access: { scopes: ["generate"], signedOutCode: "SIGN_IN_REQUIRED", needsVerifiedEmail: true },
		body: { schema: UploadFormSchema, mediaType: "multipart/form-data" },
		success: {
			status: 201,
			answer: {
				description: "Stored: its id, and its size once turned upright.",
				schema: UploadResponseSchema,
				example: { uploadId: UPLOAD_ID, width: 1024, height: 768, contentType: "image/jpeg" },
			},
		},
		errors: [400, 413],
	},
	readUploadImage: {
		id: "readUploadImage",
		method: "get",
		path: "/api/uploads/{id}/image",
		summary: "An uploaded image",
		description: "The image as stored: upright, without metadata. Only its uploader may read it.",
		tag: "Uploads",
		access: { scopes: ["generate", "read"] },
		pathParameters: [{ name: "id", description: "The upload's id.", example: UPLOAD_ID }],
		success: { status: 200, answer: { description: "The image.", mediaType: "image/*" } },
		errors: [404],
	},
} as const satisfies Record<string, ApiOperation>;

/**
 * Who may call the routes outside the public API, which no token may call: the account's own
 * (a signed-in browser; making what acts for the person later, a token or a webhook, with a
 * verified address when one is required) and the administrator's (their browser session only).
 * The public API's routes take their access from their entries above.
 */
export const BROWSER_ACCESS = {
	account: { scopes: [] },
	accountGrant: { scopes: [], needsVerifiedEmail: true },
	admin: { scopes: [], isAdminOnly: true },
} as const satisfies Record<string, RouteAccess>;
