// How an operator names one of a hosted model's inputs (Replicate, fal), shared by env.ts and the
// models file without loading an adapter.

/** A model input's name, such as `seed` or `negative_prompt`. */
export const MODEL_INPUT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MODEL_INPUT_NAME_MESSAGE =
	"must be an input name of the model, such as negative_prompt";

/** What a seed input setting says to turn the seed off, for a model that takes none. */
export const NO_SEED_INPUT = "none";
