import type { z } from "zod";
import { ErrorEnvelopeSchema } from "../../shared/generation-responses";
import {
	MAX_UPLOAD_BYTES,
	MAX_UPLOAD_PIXELS,
	UNUSED_UPLOAD_MS,
	UploadResponseSchema,
} from "../../shared/image-input";
import { UploadFormSchema } from "../../shared/upload-form";
import { MAX_UNUSED_UPLOADS, UPLOAD_RATE_LIMITS } from "../../shared/upload-rules";
import type { RouteAccess } from "./app-env";

/** Any zod schema, classic or mini: the document reads both through z.toJSONSchema. */
export type Schema = z.core.$ZodType;

export type Parameter = { name: string; description: string; example: string };

/** What an answer carries: JSON of a schema, or a file of a media type. */
type Answer =
	| { description: string; schema: Schema; example: unknown }
	| { description: string; mediaType: string };

/**
 * One route of the public API: how it is called, who may call it, the schemas that check its
 * input (the same ones its handler parses with) and what it answers. Each routes file guards its
 * routes with their entries' `access` (GENERATION_OPERATIONS in generation-operations.ts,
 * UPLOAD_OPERATIONS here), and the OpenAPI document (openapi-document.ts) is built from these
 * entries, so the document cannot leave a route out or misstate its scope.
 */
export type ApiOperation = {
	id: string;
	method: "get" | "post" | "put" | "patch" | "delete";
	/** OpenAPI's form, `{id}` for a parameter. */
	path: string;
	summary: string;
	description?: string;
	tag:
		| "Boards"
		| "Generations"
		| "History"
		| "Images"
		| "Models"
		| "Prompts"
		| "Sharing"
		| "Trash"
		| "Uploads";
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
	errors?: readonly (400 | 404 | 410 | 413 | 422 | 451 | 502)[];
};

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
