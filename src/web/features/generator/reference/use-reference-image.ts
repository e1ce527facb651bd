// The generator's reference image: an image uploaded (the "Add reference image" button, a drop on
// the form) or one of the person's own results (Edit), its strength, and the upload's busy state
// and error. Held by the form (use-generator-form.ts), which an Edit link, Edit, a drop and Escape
// change; the settings, loaded after the first paint, show it and change it (reference-image-field.tsx).
// Adding a file is add-reference-file.ts, loaded with the settings: the first page carries no upload code.
import { useMemo, useRef, useState } from "react";
import type { PublicModel } from "../../../../shared/generations/models";
import type { ReferenceInput } from "../../../../shared/image-input/image-input";
import type { ReferenceImage } from "./reference-image";

export type ReferenceImageState = {
	reference: ReferenceImage | null;
	/** The strength the person set; null until they move the slider: the server's default then. */
	strength: number | null;
	isUploading: boolean;
	/** Why the last image could not be added: too large here, or the server's message. */
	error: string | null;
};

/** What a start sends of the reference: the image and the strength set (none: the server's default). */
export type SentReference = { reference: ReferenceInput; strength?: number };

/** The reference image of the form and its actions; `initial` is the first. */
export function useReferenceImage(initial: ReferenceImage | null) {
	const [state, setState] = useState<ReferenceImageState>({
		reference: initial,
		strength: null,
		isUploading: false,
		error: null,
	});
	const uploadRef = useRef<AbortController | null>(null);
	// One set of actions for the form's life; each but the strength stops an upload under way.
	const actions = useMemo(() => {
		/** Changes the reference, stopping the upload under way; `upload` is the one that starts. */
		const change = (next: Partial<ReferenceImageState>, upload: AbortController | null = null) => {
			uploadRef.current?.abort();
			uploadRef.current = upload;
			setState((current) => ({ ...current, ...next }));
		};
		return {
			change,
			/** Edit: one of the person's own images becomes the reference. */
			chooseImage: (reference: ReferenceImage) =>
				change({ reference, isUploading: false, error: null }),
			remove: () => change({ reference: null, isUploading: false, error: null }),
			setStrength: (strength: number) => setState((current) => ({ ...current, strength })),
		};
	}, []);

	return { ...state, ...actions };
}

export type ReferenceImageControls = ReturnType<typeof useReferenceImage>;

/**
 * What a start sends of the reference for `model`: none while there is none or the model takes
 * none, and no strength for a model that decides by itself how far to move from the image.
 */
export function toSentReference(
	{ reference, strength }: Pick<ReferenceImageState, "reference" | "strength">,
	model: PublicModel | undefined,
): SentReference | null {
	if (!reference || model?.imageInput !== true) return null;
	const sentStrength = model.referenceStrength === true ? strength : null;
	return {
		reference: reference.input,
		...(sentStrength === null ? {} : { strength: sentStrength }),
	};
}
