// Editing a region of an image and expanding its frame: what a start request sends (`mask`,
// `expand`), the one mask convention every provider's adapter converts from, and the rule that
// sizes an expanded frame. Written with zod/mini, like image-input.ts: the editor parses these in
// the browser, and the server's request schema (generations.ts) takes them as they are.
// The why is docs/decisions/033-region-edit.md.
import { z } from "zod/mini";
import { ASPECT_RATIO_VALUES, type AspectRatio, findAspectRatio } from "./aspect-ratios";

/** The two actions that take a region: repaint the masked part, or paint beyond the frame. */
export const REGION_ACTIONS = ["edit-region", "expand"] as const;
export type RegionAction = (typeof REGION_ACTIONS)[number];

export function isRegionAction(action: string | null | undefined): action is RegionAction {
	return action === "edit-region" || action === "expand";
}

const MASK_MESSAGE = 'mask must be { "uploadId" }: a PNG sent through POST /api/uploads';

/**
 * `edit-region`'s mask: an upload of one's own, a PNG of the reference's pixel size. White may
 * change, black must stay, grey is a soft edge; an alpha channel, where present, multiplies it
 * (transparent counts as black).
 */
export const MaskInputSchema = z.strictObject(
	{ uploadId: z.string({ error: MASK_MESSAGE }).check(z.maxLength(100, MASK_MESSAGE)) },
	{ error: MASK_MESSAGE },
);
export type MaskInput = z.infer<typeof MaskInputSchema>;

const EXPAND_MESSAGE =
	'expand must be { "aspectRatio" } (one of the offered ratios) or { "left", "right", "top", "bottom" }, each a fraction of the image\'s width or height from 0 to 1';

const FractionSchema = z.optional(
	z.number({ error: EXPAND_MESSAGE }).check(z.gte(0, EXPAND_MESSAGE), z.lte(1, EXPAND_MESSAGE)),
);

/** An expansion by sides: each a fraction (0 to 1) of the source's width (left, right) or height. */
export const ExpandSidesSchema = z.strictObject({
	left: FractionSchema,
	right: FractionSchema,
	top: FractionSchema,
	bottom: FractionSchema,
});

/**
 * `expand`'s new frame: a ratio among Atelier's (the source centred in it), or how much to add on
 * each side, a fraction of the source's width or height (a side left out adds nothing).
 */
export const ExpandInputSchema = z.union(
	[
		z.strictObject({ aspectRatio: z.enum(ASPECT_RATIO_VALUES, { error: EXPAND_MESSAGE }) }),
		ExpandSidesSchema,
	],
	{ error: EXPAND_MESSAGE },
);
export type ExpandInput = z.infer<typeof ExpandInputSchema>;

/**
 * Where the source sits in an expanded frame, in pixels: the frame's size, and the source's
 * place and size in it (smaller than the source's own when the frame was scaled down).
 */
export type ExpandFrame = {
	width: number;
	height: number;
	left: number;
	top: number;
	sourceWidth: number;
	sourceHeight: number;
};

/** The sides an expansion adds, as fractions of the source's width or height. */
export type ExpandSides = { left: number; right: number; top: number; bottom: number };

/**
 * The sides a ratio adds to an image of this size: the frame of that ratio that just holds the
 * image, the image centred (an image already of that ratio gains nothing).
 */
export function sidesForAspectRatio(
	size: { width: number; height: number },
	aspectRatio: AspectRatio,
): ExpandSides {
	const ratio = findAspectRatio(aspectRatio);
	const target = ratio.width / ratio.height;
	if (size.width / size.height < target) {
		const added = (Math.round(size.height * target) - size.width) / size.width;
		return { left: added / 2, right: added / 2, top: 0, bottom: 0 };
	}
	const added = (Math.round(size.width / target) - size.height) / size.height;
	return { left: 0, right: 0, top: added / 2, bottom: added / 2 };
}

/** The sides an expansion request adds, whichever form it takes. */
export function expandSidesOf(
	size: { width: number; height: number },
	expand: ExpandInput,
): ExpandSides {
	if ("aspectRatio" in expand) return sidesForAspectRatio(size, expand.aspectRatio);
	return {
		left: expand.left ?? 0,
		right: expand.right ?? 0,
		top: expand.top ?? 0,
		bottom: expand.bottom ?? 0,
	};
}

/**
 * The expanded frame of an image: the source's size plus the sides, rounded to whole pixels. A
 * frame over `maxPixels` is scaled down as a whole (the source with it) until it fits, keeping its
 * proportions, so the result stays within the model's limit. Null when the sides add no pixel.
 */
export function expandFrame(
	size: { width: number; height: number },
	sides: ExpandSides,
	maxPixels: number,
): ExpandFrame | null {
	// The whole is rounded once, so a centred ratio is exact; the left and top sides are rounded
	// and the right and bottom get what is left.
	const width = Math.round(size.width * (1 + sides.left + sides.right));
	const height = Math.round(size.height * (1 + sides.top + sides.bottom));
	if (width === size.width && height === size.height) return null;
	const left = Math.min(Math.round(sides.left * size.width), width - size.width);
	const top = Math.min(Math.round(sides.top * size.height), height - size.height);
	const scale = Math.min(1, Math.sqrt(maxPixels / (width * height)));
	const scaled = (value: number) => Math.max(1, Math.floor(value * scale));
	return {
		width: scaled(width),
		height: scaled(height),
		left: Math.floor(left * scale),
		top: Math.floor(top * scale),
		sourceWidth: scaled(size.width),
		sourceHeight: scaled(size.height),
	};
}

/**
 * How many pixels a mask's edge is feathered by before the provider's result is laid over the
 * source: the soft edge that hides the seam. An expansion's mask reaches this far into the source.
 */
export const MASK_FEATHER_PIXELS = 8;

/** The least share of a mask that must be white: a mask with less is empty (all black). */
export const MIN_MASK_COVERAGE = 0.0001;

/**
 * What a generation made by `edit-region` or `expand` shows beside its images, for the preview's
 * before/after and for Use settings: `sourceUrl`, its own copy of the image it started from (its
 * pixel size is the mask's); `maskUrl`, the mask it was made with (`GET /api/generations/:id/mask`,
 * null for an expansion, whose mask is its new area); `frame`, where the source sits in an
 * expansion's result (null for `edit-region`).
 */
export const GenerationRegionSchema = z.object({
	sourceUrl: z.string(),
	maskUrl: z.nullable(z.string()),
	frame: z.nullable(
		z.object({
			width: z.int(),
			height: z.int(),
			left: z.int(),
			top: z.int(),
			sourceWidth: z.int(),
			sourceHeight: z.int(),
		}),
	),
});
export type GenerationRegion = z.infer<typeof GenerationRegionSchema>;
