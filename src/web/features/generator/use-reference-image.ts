// The generator's reference image: an image uploaded (the "Add reference image" button, a drop on
// the form) or one of the person's own results (Edit), its strength, and the upload's busy state
// and error. Held by the settings (generation-controls.tsx, loaded after the first paint); the form
// on the first page asks for changes with a ReferenceRequest and hears what a start sends.
import { useCallback, useRef, useState } from "react";
import { ERRORS } from "../../../shared/errors";
import type { ReferenceInput } from "../../../shared/image-input";
import type { ReferenceImage } from "./reference-image";

export type ReferenceImageState = {
	reference: ReferenceImage | null;
	/** The strength the person set; null until they move the slider: the server's default then. */
	strength: number | null;
	isUploading: boolean;
	/** Why the last image could not be added: too large here, or the server's message. */
	error: string | null;
};

/**
 * What the form asks of the reference, applied once each (a new `id` applies the next): a file
 * dropped on it, an image of one's own (Edit, or a link's), or none (Escape).
 */
export type ReferenceRequest =
	| { id: number; file: File }
	| { id: number; image: ReferenceImage }
	| { id: number; isCleared: true }
	/** The address the page opened at: an Edit link's reference (image-actions.ts, readEditReference). */
	| { id: number; search: string };

/** What a start sends of the reference: the image and the strength set (none: the server's default). */
export type SentReference = { reference: ReferenceInput; strength?: number };

/** The reference image of the form and its actions. */
export function useReferenceImage(initial: ReferenceImage | null = null) {
	const [state, setState] = useState<ReferenceImageState>({
		reference: initial,
		strength: null,
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
			const controller = new AbortController();
			uploadRef.current = controller;
			setState((current) => ({ ...current, isUploading: true, error: null }));
			import("./add-reference-file")
				.then(({ addReferenceFile }) => addReferenceFile(file, controller.signal))
				.then(
					(added) => {
						if (controller.signal.aborted) return;
						setState((current) =>
							"reference" in added
								? { ...current, reference: added.reference, isUploading: false }
								: { ...current, isUploading: false, error: added.error },
						);
					},
					() => {
						// The code could not load (offline), or the upload was stopped.
						if (controller.signal.aborted) return;
						setState((current) => ({
							...current,
							isUploading: false,
							error: ERRORS.NETWORK_ERROR.message,
						}));
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

	const remove = useCallback(() => {
		stopUpload();
		setState((current) => ({ ...current, reference: null, isUploading: false, error: null }));
	}, [stopUpload]);

	const setStrength = useCallback((strength: number) => {
		setState((current) => ({ ...current, strength }));
	}, []);

	return { ...state, addFile, chooseImage, remove, setStrength };
}

export type ReferenceImageControls = ReturnType<typeof useReferenceImage>;
