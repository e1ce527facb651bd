// Making images from an image: the actions on a result (vary, upscale, edit), the reference image
// and its limits, and the family an image belongs to (what it was made from, what was made from
// it). Written with zod/mini: the generator parses these in the browser
// (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import {
	editorTitleExpand,
	editorTitleRegion,
	generatorEdit,
	sharedActionUpscale,
	sharedActionVaryStrong,
	sharedActionVarySubtle,
} from "../i18n/messages";

/**
 * What a generation does with the image it starts from. `vary-subtle` and `vary-strong` make new
 * images close to, or freer from, one image with its prompt, ratio and model; `upscale` makes one
 * image larger; `edit` makes new images from a reference with a prompt the person wrote;
 * `edit-region` repaints the part of it a mask covers and `expand` paints beyond its frame, every
 * other pixel kept (region-edit.ts).
 */
export const GENERATION_ACTIONS = [
	"vary-subtle",
	"vary-strong",
	"upscale",
	"edit",
	"edit-region",
	"expand",
] as const;
export const GenerationActionSchema = z.enum(GENERATION_ACTIONS);
export type GenerationAction = z.infer<typeof GenerationActionSchema>;

/**
 * The labels of the actions, on every result image, in the page's language: the action's id stays
 * what requests, recipes and archives name it by.
 */
export const ACTION_LABELS: Record<GenerationAction, () => string> = {
	"vary-subtle": sharedActionVarySubtle,
	"vary-strong": sharedActionVaryStrong,
	upscale: sharedActionUpscale,
	edit: generatorEdit,
	"edit-region": editorTitleRegion,
	expand: editorTitleExpand,
};

/**
 * How far a variation may move from its image (a reference strength: 0 keeps it, 1 ignores it).
 * Chosen so a subtle variation keeps the composition and a strong one keeps little more than the
 * palette and layout.
 */
export const VARY_STRENGTHS = { "vary-subtle": 0.35, "vary-strong": 0.7 } as const;

/** The reference strength a generation with a reference starts with when none is given. */
export const DEFAULT_REFERENCE_STRENGTH = 0.6;

/** Upscale's factor when none is given. */
export const DEFAULT_UPSCALE_FACTOR = 2;

/** The image types an upload may be, told by content, never by name. */
export const UPLOAD_CONTENT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

/** At most 20 MB a file. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** At most 40 megapixels, read from the file's header before anything is decoded. */
export const MAX_UPLOAD_PIXELS = 40_000_000;

/** An upload no generation used is removed after this long. */
export const UNUSED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** `POST /api/uploads`: the stored upload, private to its owner, to name as a reference. */
export const UploadResponseSchema = z.object({
	uploadId: z.string(),
	width: z.int(),
	height: z.int(),
	contentType: z.enum(UPLOAD_CONTENT_TYPES),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

/**
 * What a generation was made from. For an image of another generation: its id, the image's index
 * (from 0), the action, and whether that generation still exists (its id and the action are kept
 * once it is deleted). For an edit of an uploaded file: `{ action: "edit", upload: true }` (or
 * `edit-region`, `expand`), with its `uploadId` while the server still holds that upload.
 */
export const GenerationParentSchema = z.union([
	z.object({
		generationId: z.string(),
		imageIndex: z.int(),
		action: GenerationActionSchema,
		exists: z.boolean(),
		/** That generation is in its owner's Trash (`exists` is then false): "In the Trash". */
		inTrash: z.optional(z.boolean()),
	}),
	z.object({
		action: z.enum(["edit", "edit-region", "expand"]),
		upload: z.literal(true),
		/** The upload, while the server holds it (absent once it is removed, with its account). */
		uploadId: z.optional(z.string()),
	}),
]);
export type GenerationParent = z.infer<typeof GenerationParentSchema>;

/**
 * The image a generation starts from, as a start request names it: an upload of one's own, or one
 * image (counted from 0, as in the download route) of one's own generation.
 */
export type ReferenceInput = { uploadId: string } | { generationId: string; imageIndex: number };
