import { z } from "zod";
import {
	httpUrlVariable,
	imagesPerRequestOption,
	imagesPerRequestVariable,
	inputObjectOption,
	jsonObjectVariable,
	modelInputVariable,
	optionalString,
	seedInputVariable,
} from "../shared/config-fields";
import { HOSTED_MODEL_INPUT_OPTIONS, readHostedModelInputs } from "../shared/hosted-model-options";
import { defineProvider, requireValue } from "../shared/provider-definition";
import {
	REPLICATE_DEFAULT_BASE_URL,
	REPLICATE_DEFAULT_IMAGES_PER_PREDICTION,
	REPLICATE_DEFAULT_MODEL,
	REPLICATE_DEFAULT_SEED_INPUT,
	REPLICATE_MODEL_PATTERN,
} from "./replicate-config";
import { createReplicateProvider } from "./replicate-provider";

const MODEL_MESSAGE = "must be owner/name, owner/name:<version> or a 64-hex version";

/** Replicate: its variables, its MODELS_FILE options (each falling back to its variable). */
export const REPLICATE_PROVIDER = defineProvider({
	label: "Replicate",
	env: {
		REPLICATE_API_TOKEN: optionalString,
		REPLICATE_MODEL: z
			.string()
			.trim()
			.regex(REPLICATE_MODEL_PATTERN, MODEL_MESSAGE)
			.optional()
			.default(REPLICATE_DEFAULT_MODEL),
		REPLICATE_BASE_URL: httpUrlVariable(REPLICATE_DEFAULT_BASE_URL),
		REPLICATE_IMAGES_PER_PREDICTION: imagesPerRequestVariable(
			REPLICATE_DEFAULT_IMAGES_PER_PREDICTION,
		),
		REPLICATE_INPUT_JSON: jsonObjectVariable,
		REPLICATE_SEED_INPUT: seedInputVariable(REPLICATE_DEFAULT_SEED_INPUT),
		REPLICATE_NEGATIVE_PROMPT_INPUT: modelInputVariable,
	},
	requires: "REPLICATE_API_TOKEN",
	namesImageInput: true,
	options: {
		model: z.string().regex(REPLICATE_MODEL_PATTERN, MODEL_MESSAGE).optional(),
		input: inputObjectOption.optional(),
		imagesPerPrediction: imagesPerRequestOption.optional(),
		...HOSTED_MODEL_INPUT_OPTIONS,
	},
	create(options, { env }, image) {
		return createReplicateProvider({
			...readHostedModelInputs(
				options,
				{
					input: env.REPLICATE_INPUT_JSON,
					seedInput: env.REPLICATE_SEED_INPUT,
					negativePromptInput: env.REPLICATE_NEGATIVE_PROMPT_INPUT,
				},
				image,
			),
			apiToken: requireValue(env.REPLICATE_API_TOKEN, "provider", "REPLICATE_API_TOKEN"),
			model: options.model ?? env.REPLICATE_MODEL,
			baseUrl: env.REPLICATE_BASE_URL,
			imagesPerPrediction: options.imagesPerPrediction ?? env.REPLICATE_IMAGES_PER_PREDICTION,
			// Replicate stops a prediction nobody can use any more: past our own timeout.
			cancelAfterMs: env.GENERATION_TIMEOUT_MS,
		});
	},
});
