import { z } from "zod";
import { httpUrlVariable, optionalString } from "../shared/config-fields";
import { defineProvider, requireValue } from "../shared/provider-definition";
import {
	OPENAI_DEFAULT_BASE_URL,
	OPENAI_DEFAULT_MODEL,
	OPENAI_DEFAULT_QUALITY,
	OPENAI_DEFAULT_SIZES,
	OPENAI_QUALITIES,
	OPENAI_SIZE_MODES,
} from "./openai-config";
import { createOpenAiProvider } from "./openai-provider";

/** OpenAI's image API: its variables, its MODELS_FILE options (each falling back to its variable). */
export const OPENAI_PROVIDER = defineProvider({
	label: "OpenAI",
	env: {
		OPENAI_API_KEY: optionalString,
		OPENAI_BASE_URL: httpUrlVariable(OPENAI_DEFAULT_BASE_URL),
		OPENAI_IMAGE_MODEL: z.string().trim().min(1).optional().default(OPENAI_DEFAULT_MODEL),
		OPENAI_IMAGE_QUALITY: z.enum(OPENAI_QUALITIES).optional().default(OPENAI_DEFAULT_QUALITY),
		OPENAI_IMAGE_SIZES: z.enum(OPENAI_SIZE_MODES).optional().default(OPENAI_DEFAULT_SIZES),
	},
	requires: "OPENAI_API_KEY",
	options: {
		model: z.string().min(1).optional(),
		quality: z.enum(OPENAI_QUALITIES).optional(),
		sizes: z.enum(OPENAI_SIZE_MODES).optional(),
	},
	create(options, { env }) {
		return createOpenAiProvider({
			apiKey: requireValue(env.OPENAI_API_KEY, "provider", "OPENAI_API_KEY"),
			baseUrl: env.OPENAI_BASE_URL,
			model: options.model ?? env.OPENAI_IMAGE_MODEL,
			quality: options.quality ?? env.OPENAI_IMAGE_QUALITY,
			sizes: options.sizes ?? env.OPENAI_IMAGE_SIZES,
			// The one blocking call may take as long as the generation is allowed to.
			requestTimeoutMs: env.GENERATION_TIMEOUT_MS,
			maxImageBytes: env.IMAGE_DOWNLOAD_MAX_BYTES,
		});
	},
});
