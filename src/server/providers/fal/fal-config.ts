// fal.ai's settings and their defaults, shared by env.ts and the adapter without loading the adapter.

export const FAL_DEFAULT_QUEUE_URL = "https://queue.fal.run";
export const FAL_DEFAULT_MODEL = "fal-ai/flux/schnell";
/** `owner/app[/path]`, such as `fal-ai/flux/schnell`. */
export const FAL_MODEL_PATTERN = /^[\w.-]+\/[\w.-]+(\/[\w.-]+)*$/;
export const FAL_RATIO_INPUTS = ["auto", "image_size", "aspect_ratio"] as const;
export type FalRatioInput = (typeof FAL_RATIO_INPUTS)[number];
export const FAL_DEFAULT_RATIO_INPUT: FalRatioInput = "auto";
export const FAL_DEFAULT_IMAGES_PER_REQUEST = 4;
/** The input fal's image models take their seed in (Flux, Stable Diffusion 3.5, Recraft, ...). */
export const FAL_DEFAULT_SEED_INPUT = "seed";
