// The reference images a person uploads (POST /api/uploads), wrapped once. Loaded on demand, when
// an image is added to the generator: it parses with zod/mini
// (docs/decisions/005-first-load-budget.md).
import { type UploadResponse, UploadResponseSchema } from "../../../shared/image-input/image-input";
import { requestApi } from "../api/api-client";

/**
 * `POST /api/uploads`: the file, in the multipart field `image`. The server checks it by content
 * (PNG, JPEG or WebP, at most 20 MB and 40 megapixels) and answers its id and size, or an ApiError
 * with its message.
 */
export function uploadImage(file: Blob, signal?: AbortSignal): Promise<UploadResponse> {
	const body = new FormData();
	body.set("image", file);
	return requestApi("/api/uploads", UploadResponseSchema, { method: "POST", body, signal });
}

/** Where the owner's copy of an upload is shown from. */
export function buildUploadImageUrl(uploadId: string): string {
	return `/api/uploads/${encodeURIComponent(uploadId)}/image`;
}
