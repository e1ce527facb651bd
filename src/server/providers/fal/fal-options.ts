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
	FAL_DEFAULT_IMAGES_PER_REQUEST,
	FAL_DEFAULT_MODEL,
	FAL_DEFAULT_QUEUE_URL,
	FAL_DEFAULT_RATIO_INPUT,
	FAL_DEFAULT_SEED_INPUT,
	FAL_MODEL_PATTERN,
	FAL_RATIO_INPUTS,
} from "./fal-config";
import { createFalProvider } from "./fal-provider";

const MODEL_MESSAGE = "must look like owner/app[/path], such as fal-ai/flux/schnell";

/** fal.ai: its variables, its MODELS_FILE options (each falling back to its variable). */
export const FAL_PROVIDER = defineProvider({
	label: "fal",
	env: {
		FAL_KEY: optionalString,
		FAL_MODEL: z
			.string()
			.trim()
			.regex(FAL_MODEL_PATTERN, MODEL_MESSAGE)
			.optional()
			.default(FAL_DEFAULT_MODEL),
		FAL_QUEUE_URL: httpUrlVariable(FAL_DEFAULT_QUEUE_URL),
		FAL_RATIO_INPUT: z.enum(FAL_RATIO_INPUTS).optional().default(FAL_DEFAULT_RATIO_INPUT),
		FAL_IMAGES_PER_REQUEST: imagesPerRequestVariable(FAL_DEFAULT_IMAGES_PER_REQUEST),
		FAL_INPUT_JSON: jsonObjectVariable,
		FAL_SEED_INPUT: seedInputVariable(FAL_DEFAULT_SEED_INPUT),
		FAL_NEGATIVE_PROMPT_INPUT: modelInputVariable,
	},
	requires: "FAL_KEY",
	namesImageInput: true,
	options: {
		model: z.string().regex(FAL_MODEL_PATTERN, MODEL_MESSAGE).optional(),
		input: inputObjectOption.optional(),
		ratioInput: z.enum(FAL_RATIO_INPUTS).optional(),
		imagesPerRequest: imagesPerRequestOption.optional(),
		...HOSTED_MODEL_INPUT_OPTIONS,
	},
	create(options, { env }, image) {
		return createFalProvider({
			...readHostedModelInputs(
				options,
				{
					input: env.FAL_INPUT_JSON,
					seedInput: env.FAL_SEED_INPUT,
					negativePromptInput: env.FAL_NEGATIVE_PROMPT_INPUT,
				},
				image,
			),
			apiKey: requireValue(env.FAL_KEY, "provider", "FAL_KEY"),
			model: options.model ?? env.FAL_MODEL,
			queueUrl: env.FAL_QUEUE_URL,
			ratioInput: options.ratioInput ?? env.FAL_RATIO_INPUT,
			imagesPerRequest: options.imagesPerRequest ?? env.FAL_IMAGES_PER_REQUEST,
		});
	},
});
