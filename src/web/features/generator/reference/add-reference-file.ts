// Adding a file as the generator's reference: the form's reference shows the upload busy, a file
// too large is refused before it is sent, then it is uploaded and becomes the reference, or says
// why not. Loaded with the settings (reference-image-field.tsx), which a drop on the form also
// reaches once a model taking an image is chosen; the upload's request code, which parses with
// zod/mini, loads on demand when an image is added (docs/decisions/005-first-load-budget.md).
import { errorNetworkError, generatorUploadTooLarge } from "../../../../shared/i18n/messages";
import { MAX_UPLOAD_BYTES } from "../../../../shared/image-input/image-input";
import { ApiError } from "../../../lib/api/api-client";
import type { ReferenceImage } from "./reference-image";
import type { ReferenceImageControls } from "./use-reference-image";

/** Uploads `file` and makes it the form's reference; a file over the limit is refused before sending. */
export async function addReferenceFile(
	{ change }: Pick<ReferenceImageControls, "change">,
	file: Blob,
): Promise<void> {
	const upload = new AbortController();
	change({ isUploading: true, error: null }, upload);
	const added = await uploadReferenceFile(file, upload.signal)
		// The code could not load (offline), or the upload was stopped.
		.catch(() => ({ error: errorNetworkError() }));
	if (!upload.signal.aborted) change({ ...added, isUploading: false });
}

/** The uploaded file as the form's reference, or why it could not be added. */
async function uploadReferenceFile(
	file: Blob,
	signal: AbortSignal,
): Promise<{ reference: ReferenceImage } | { error: string }> {
	if (file.size > MAX_UPLOAD_BYTES) return { error: generatorUploadTooLarge() };
	const { buildUploadImageUrl, uploadImage } = await import(
		"../../../lib/generations/uploads-requests"
	);
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
