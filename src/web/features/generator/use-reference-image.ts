// The generator's reference image: an image uploaded (the "Add reference image" button, a drop on
// the form) or one of the person's own results (Edit), its strength, and the upload's busy state
// and error. On the first page with the form, so it imports no schema: the upload's request code
// loads when an image is added.
import { useCallback, useRef, useState } from "react";
import { ERRORS } from "../../../shared/errors";
import {
	DEFAULT_REFERENCE_STRENGTH,
	IMAGE_INPUT_TEXTS,
	MAX_UPLOAD_BYTES,
	type ReferenceInput,
} from "../../../shared/image-input";
import { ApiError } from "../../lib/api-fetch";

/** The reference as the form holds it: what a start names, and the thumbnail shown (null: not known yet). */
export type ReferenceImage = { input: ReferenceInput; thumbnailUrl: string | null };

export type ReferenceImageState = {
	reference: ReferenceImage | null;
	strength: number;
	isUploading: boolean;
	/** Why the last image could not be added: too large here, or the server's message. */
	error: string | null;
};

/** The reference image of the form and its actions. */
export function useReferenceImage(initial: ReferenceImage | null = null) {
	const [state, setState] = useState<ReferenceImageState>({
		reference: initial,
		strength: DEFAULT_REFERENCE_STRENGTH,
		isUploading: false,
		error: null,
	});
	const uploadRef = useRef<AbortController | null>(null);

	const stopUpload = useCallback(() => {
		uploadRef.current?.abort();
		uploadRef.current = null;
	}, []);

	/** Uploads `file` and makes it the reference; a file over the limit is refused before sending. */
	const addFile = useCallback(
		(file: File) => {
			stopUpload();
			if (file.size > MAX_UPLOAD_BYTES) {
				setState((current) => ({
					...current,
					isUploading: false,
					error: IMAGE_INPUT_TEXTS.uploadTooLarge,
				}));
				return;
			}
			const controller = new AbortController();
			uploadRef.current = controller;
			setState((current) => ({ ...current, isUploading: true, error: null }));
			import("../../lib/uploads-requests")
				.then(async ({ uploadImage, buildUploadImageUrl }) => {
					const upload = await uploadImage(file, controller.signal);
					return {
						input: { uploadId: upload.uploadId },
						thumbnailUrl: buildUploadImageUrl(upload.uploadId),
					};
				})
				.then(
					(reference) => {
						if (controller.signal.aborted) return;
						setState((current) => ({ ...current, reference, isUploading: false }));
					},
					(error: unknown) => {
						if (controller.signal.aborted) return;
						// An ApiError carries the server's message; anything else is the network's.
						const message =
							error instanceof ApiError ? error.message : ERRORS.NETWORK_ERROR.message;
						setState((current) => ({ ...current, isUploading: false, error: message }));
					},
				);
		},
		[stopUpload],
	);

	/** Edit: one of the person's own images becomes the reference. */
	const chooseImage = useCallback(
		(reference: ReferenceImage) => {
			stopUpload();
			setState((current) => ({ ...current, reference, isUploading: false, error: null }));
		},
		[stopUpload],
	);

	/** The thumbnail of a reference named by a link, once the generation it belongs to is read. */
	const showThumbnail = useCallback((thumbnailUrl: string) => {
		setState((current) =>
			current.reference
				? { ...current, reference: { ...current.reference, thumbnailUrl } }
				: current,
		);
	}, []);

	const remove = useCallback(() => {
		stopUpload();
		setState((current) => ({ ...current, reference: null, isUploading: false, error: null }));
	}, [stopUpload]);

	const setStrength = useCallback((strength: number) => {
		setState((current) => ({ ...current, strength }));
	}, []);

	return { ...state, addFile, chooseImage, showThumbnail, remove, setStrength };
}

export type ReferenceImageControls = ReturnType<typeof useReferenceImage>;
