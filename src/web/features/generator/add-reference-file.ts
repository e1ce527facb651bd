// Adding a file as the generator's reference: checked against the upload limit here, so a file
// too large is refused before it is sent, then uploaded. Loaded on demand, when an image is
// added: it parses with zod/mini (docs/decisions/005-first-load-budget.md).
import { errorNetworkError, generatorUploadTooLarge } from "../../../shared/i18n/messages";
import { MAX_UPLOAD_BYTES } from "../../../shared/image-input";
import { ApiError } from "../../lib/api-client";
import { buildUploadImageUrl, uploadImage } from "../../lib/uploads-requests";
import type { ReferenceImage } from "./reference-image";

/** The uploaded file as the form's reference, or why it could not be added. */
export async function addReferenceFile(
	file: File,
	signal: AbortSignal,
): Promise<{ reference: ReferenceImage } | { error: string }> {
	if (file.size > MAX_UPLOAD_BYTES) return { error: generatorUploadTooLarge() };
	try {
		const upload = await uploadImage(file, signal);
		return {
			reference: {
				input: { uploadId: upload.uploadId },
				thumbnailUrl: buildUploadImageUrl(upload.uploadId),
			},
		};
	} catch (error) {
		if (signal.aborted) throw error;
		// An ApiError carries the server's message; anything else is the network's.
		return { error: error instanceof ApiError ? error.message : errorNetworkError() };
	}
}
