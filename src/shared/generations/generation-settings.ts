// What a person may set on a generation beside its prompt and ratio. No schema library here: the
// first page imports this module (docs/decisions/005-first-load-budget.md); the schemas are in
// generation-responses.ts and models.ts.

/** A seed is a whole number in 0..MAX_SEED; -1 or nothing asks for a random one. */
export const MAX_SEED = 4_294_967_295;

/** How many images one generation may make; a model may offer fewer of these. */
export const IMAGE_COUNTS = [1, 2, 3, 4] as const;
export const DEFAULT_IMAGE_COUNT = 4;

/** The quality levels a model may offer (OpenAI's image models). */
export const QUALITIES = ["low", "medium", "high"] as const;
export type Quality = (typeof QUALITIES)[number];

/** The message a reused generation gets when its model is not in the catalogue any more. */
export const MODEL_NO_LONGER_OFFERED = "This model is no longer offered";
