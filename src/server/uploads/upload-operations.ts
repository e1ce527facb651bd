import {
	MAX_UPLOAD_BYTES,
	MAX_UPLOAD_PIXELS,
	UNUSED_UPLOAD_MS,
	UploadResponseSchema,
} from "../../shared/image-input/image-input";
import { UploadFormSchema } from "../../shared/image-input/upload-form";
import { MAX_UNUSED_UPLOADS, UPLOAD_RATE_LIMITS } from "../../shared/image-input/upload-rules";
import type { ApiOperation } from "../http/api-operations";

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
