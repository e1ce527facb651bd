import { MAX_SEED } from "../../../shared/generations/generation-settings";

/** The whole numbers a service's seed accepts, both ends included. */
export type SeedRange = { min: number; max: number };

/** Every seed a generation may carry: 0 to MAX_SEED. */
export const GENERATION_SEED_RANGE: SeedRange = { min: 0, max: MAX_SEED };

/**
 * The seed of the `index`-th request of a generation made of several (one image each, where the
 * service cannot batch): the generation's seed plus the index, wrapping round within the range, so
 * the first request uses the seed itself and the same seed always makes the same set of images
 * (the convention of A1111 and ComfyUI's own batch tools).
 */
export function seedForRequest(
	seed: number,
	index: number,
	range: SeedRange = GENERATION_SEED_RANGE,
): number {
	const span = range.max - range.min + 1;
	// Seeds may reach 2^53: nothing is added to a remainder that is already in range.
	const remainder = (seed - range.min + index) % span;
	return range.min + (remainder < 0 ? remainder + span : remainder);
}
