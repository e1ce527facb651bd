import { z } from "zod";
import { UPLOAD_CONTENT_TYPES } from "./image-input";
import { UPLOAD_MESSAGES } from "./upload-rules";

/**
 * `POST /api/uploads`'s multipart form: one file in the field `image`. Its declared type is only
 * documentation: the server tells the type by the file's content.
 */
export const UploadFormSchema = z.object({
	image: z.file({ error: () => UPLOAD_MESSAGES.missing() }).meta({
		description: `A PNG, JPEG or WebP image, told by its content (${UPLOAD_CONTENT_TYPES.join(", ")}).`,
	}),
});
