// OpenAI's settings and their defaults, shared by env.ts and the adapter without loading the adapter.

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const OPENAI_DEFAULT_MODEL = "gpt-image-1";
export const OPENAI_QUALITIES = ["low", "medium", "high", "auto"] as const;
export type OpenAiQuality = (typeof OPENAI_QUALITIES)[number];
export const OPENAI_DEFAULT_QUALITY: OpenAiQuality = "medium";
/** The qualities a person may choose for one generation (`auto` is the operator's only). */
export const OPENAI_GENERATION_QUALITIES = ["low", "medium", "high"] as const;
export const OPENAI_SIZE_MODES = ["auto", "standard", "exact"] as const;
export type OpenAiSizeMode = (typeof OPENAI_SIZE_MODES)[number];
export const OPENAI_DEFAULT_SIZES: OpenAiSizeMode = "auto";
