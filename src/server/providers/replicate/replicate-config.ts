// Replicate's settings and their defaults, shared by env.ts and the adapter without loading the adapter.

export const REPLICATE_DEFAULT_BASE_URL = "https://api.replicate.com/v1";
export const REPLICATE_DEFAULT_MODEL = "black-forest-labs/flux-schnell";
/** An official model `owner/name`, a version `owner/name:<hash>`, or a bare 64-hex version. */
export const REPLICATE_MODEL_PATTERN = /^([\w.-]+\/[\w.-]+(:[0-9a-f]{64})?|[0-9a-f]{64})$/;
export const REPLICATE_DEFAULT_IMAGES_PER_PREDICTION = 4;
/** The input most image models on Replicate take their seed in (flux-schnell, SDXL, ...). */
export const REPLICATE_DEFAULT_SEED_INPUT = "seed";
