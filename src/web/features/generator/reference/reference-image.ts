// What the generator's reference image is, apart from the hook that holds it
// (use-reference-image.ts) and the upload that makes one (add-reference-file.ts, on demand).
import type { ReferenceInput } from "../../../../shared/image-input/image-input";

/** The reference as the form holds it: what a start names, and the thumbnail shown (null: not known yet). */
export type ReferenceImage = { input: ReferenceInput; thumbnailUrl: string | null };
