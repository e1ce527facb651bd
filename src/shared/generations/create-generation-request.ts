// `POST /api/generations`: what a start asks for (the prompt, its settings, a reference image, a
// region edit's mask or frame, a batch), parsed by the server's routes and typed for the browser's.
import { z } from "zod";
import { MAX_PROMPT_LENGTH } from "../core/constants";
import {
	sharedActionOneOf,
	sharedAspectRatioOneOf,
	sharedBoardsList,
	sharedCountRange,
	sharedFactorTwoOrFour,
	sharedModelId,
	sharedModelsRange,
	sharedQualityOneOf,
	sharedReferenceShape,
	sharedSeedRange,
	sharedStrengthRange,
	sharedVariationsShape,
} from "../i18n/messages";
import { GENERATION_ACTIONS } from "../image-input/image-input";
import { validateNegativePrompt, validatePrompt } from "../prompts/prompt";
import { STYLE_MESSAGES } from "../prompts/prompt-styles";
import { ASPECT_RATIO_VALUES } from "./aspect-ratios";
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from "./batches";
import { IMAGE_COUNTS, MAX_SEED, QUALITIES } from "./generation-settings";
import { ExpandInputSchema, MaskInputSchema } from "./region-edit";

/**
 * A zod schema that applies `validatePrompt` and yields the trimmed prompt. Its JSON Schema (the
 * API's document) cannot see into the check, so it is said in the metadata.
 */
export function promptSchema(description: string) {
	return z
		.unknown()
		.transform((value, context) => {
			const check = validatePrompt(value);
			if (!check.ok) {
				context.addIssue({ code: "custom", message: check.message });
				return z.NEVER;
			}
			return check.prompt;
		})
		.meta({ type: "string", minLength: 1, maxLength: MAX_PROMPT_LENGTH, description });
}

const PromptSchema = promptSchema(
	`What to make, ${MAX_PROMPT_LENGTH} characters at most (trimmed).`,
);

const NegativePromptSchema = z
	.unknown()
	.transform((value, context) => {
		const check = validateNegativePrompt(value);
		if (!check.ok) {
			context.addIssue({ code: "custom", message: check.message });
			return z.NEVER;
		}
		return check.negativePrompt;
	})
	.meta({
		type: ["string", "null"],
		maxLength: MAX_PROMPT_LENGTH,
		description: "What to leave out, where the model takes a negative prompt.",
	});

// A schema's messages are catalogue messages, made as an issue is read: in the request's language
// on the server (request-input.ts), in the page's in the browser.
const VARIATIONS_MESSAGE = { error: () => sharedVariationsShape() };
const MODELS_MESSAGE = {
	error: () =>
		sharedModelsRange({ min: String(MIN_COMPARED_MODELS), max: String(MAX_COMPARED_MODELS) }),
};
const BOARDS_MESSAGE = { error: () => sharedBoardsList() };
/** The most boards a new generation may be put on at once. */
const MAX_NEW_GENERATION_BOARDS = 20;
// The largest seed as text: the English is written without thousands separators.
const SEED_MESSAGE = { error: () => sharedSeedRange({ max: String(MAX_SEED) }) };

const REFERENCE_MESSAGE = { error: () => sharedReferenceShape() };

/**
 * The image a generation starts from: an upload of the person's (`POST /api/uploads`), or one image
 * of one of their generations, counted from 0 as in the download route. Only the shape is checked
 * here; whose it is, and whether the image exists, the service says.
 */
export const GenerationReferenceSchema = z.union(
	[
		z.strictObject({
			uploadId: z.string(REFERENCE_MESSAGE).max(100, REFERENCE_MESSAGE),
		}),
		z.strictObject({
			generationId: z.string(REFERENCE_MESSAGE).max(100, REFERENCE_MESSAGE),
			imageIndex: z
				.number(REFERENCE_MESSAGE)
				.int(REFERENCE_MESSAGE)
				.min(0, REFERENCE_MESSAGE)
				.max(99, REFERENCE_MESSAGE),
		}),
	],
	REFERENCE_MESSAGE,
);
export type GenerationReference = z.infer<typeof GenerationReferenceSchema>;

const STRENGTH_MESSAGE = { error: () => sharedStrengthRange() };
const ACTION_MESSAGE = {
	error: () => sharedActionOneOf({ actions: GENERATION_ACTIONS.join(", ") }),
};
const FACTOR_MESSAGE = { error: () => sharedFactorTwoOrFour() };

/**
 * `POST /api/generations`: the prompt is checked by the same rules the browser applies. The
 * settings are checked here for their shape; whether the model offers them is the service's to
 * say, since it knows the catalogue. A seed of -1 (or none) asks for a random one: `seed` is null.
 *
 * Made from an image: `reference` names it, `action` says what to do with it (a reference without
 * an action is an edit), `strength` how far an edit may move from it and `factor` how much an
 * upscale enlarges it. A variation and an upscale may leave `prompt` and `aspectRatio` out: they
 * are the parent's. How the fields go together is resolve-settings.ts's to check, naming the field.
 */
export const CreateGenerationRequestSchema = z.object({
	prompt: PromptSchema.optional().meta({
		description: `What to make, ${MAX_PROMPT_LENGTH} characters at most (trimmed). Required, except for \`vary-subtle\`, \`vary-strong\` and \`upscale\`, which take the parent's.`,
	}),
	aspectRatio: z
		.enum(ASPECT_RATIO_VALUES, { error: () => sharedAspectRatioOneOf() })
		.optional()
		.meta({
			description:
				"Required, except with a reference: a variation and an upscale keep the parent's ratio, an edit the reference's.",
		}),
	model: z
		.string({ error: () => sharedModelId() })
		.max(100, "model must be the id of a model")
		.optional(),
	count: z
		.number({ error: () => sharedCountRange({ max: String(IMAGE_COUNTS.length) }) })
		.int(`count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.min(1, `count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.max(IMAGE_COUNTS.length, `count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.optional(),
	seed: z
		.number(SEED_MESSAGE)
		.int(SEED_MESSAGE)
		.min(-1, SEED_MESSAGE)
		.max(MAX_SEED, SEED_MESSAGE)
		.nullable()
		.optional()
		.transform((seed) => (seed === undefined || seed === null || seed === -1 ? null : seed)),
	negativePrompt: NegativePromptSchema.optional().transform((value) => value ?? null),
	quality: z
		.enum(QUALITIES, { error: () => sharedQualityOneOf({ qualities: QUALITIES.join(", ") }) })
		.nullable()
		.optional()
		.transform((quality) => quality ?? null),
	reference: GenerationReferenceSchema.optional(),
	strength: z
		.number(STRENGTH_MESSAGE)
		.min(0, STRENGTH_MESSAGE)
		.max(1, STRENGTH_MESSAGE)
		.optional()
		.meta({
			description:
				"How far an edit may move from its reference, 0 (keep it) to 1 (ignore it); 0.6 by default. Variations have their own.",
		}),
	action: z.enum(GENERATION_ACTIONS, ACTION_MESSAGE).optional().meta({
		description:
			"What to do with `reference`: make variations close to it or freer from it, upscale it, or edit it with the prompt (the default with a reference).",
	}),
	factor: z
		.union([z.literal(2), z.literal(4)], FACTOR_MESSAGE)
		.optional()
		.meta({ description: "For `upscale`: 2 (the default) or 4 times the width and height." }),
	boards: z
		.array(z.string(BOARDS_MESSAGE).max(100, BOARDS_MESSAGE), BOARDS_MESSAGE)
		.max(MAX_NEW_GENERATION_BOARDS, `boards: at most ${MAX_NEW_GENERATION_BOARDS} boards`)
		.optional()
		.transform((ids) =>
			ids === undefined ? undefined : [...new Set(ids.map((id) => id.toLowerCase()))],
		)
		.meta({
			description:
				"Boards of yours (not smart ones) to put the new generation on, fixed as it starts; one that is not yours answers 404 naming `boards`.",
		}),
	mask: z.optional(MaskInputSchema).meta({
		description:
			"For `edit-region` (required): an upload of yours (`POST /api/uploads`), a PNG of the reference's pixel size: white where the image may change, black where it must stay, grey for a soft edge; an alpha channel, where present, multiplies it. Every pixel outside it is kept.",
	}),
	expand: z.optional(ExpandInputSchema).meta({
		description:
			"For `expand` (required): `{ aspectRatio }`, one of the offered ratios, the reference centred in it; or `{ left, right, top, bottom }`, each a fraction (0 to 1) of the reference's width or height added on that side. A frame over the model's pixel limit is scaled down as a whole.",
	}),
	style: z
		.string({ error: STYLE_MESSAGES.style })
		.max(100, { error: STYLE_MESSAGES.style })
		.optional()
		.meta({
			description:
				"A style's id (`GET /api/styles`): the provider receives the prompt in the style's template and its negative part; the generation keeps the prompt as typed and the style's name.",
		}),
	variations: z
		.union(
			[
				z.literal("all"),
				z.strictObject({
					random: z
						.number(VARIATIONS_MESSAGE)
						.int(VARIATIONS_MESSAGE)
						.min(1, VARIATIONS_MESSAGE)
						.max(100, VARIATIONS_MESSAGE),
				}),
			],
			VARIATIONS_MESSAGE,
		)
		.optional()
		.meta({
			description:
				'Expands the prompt\'s `{a|b|c}` choices: `"all"`, one generation per combination; `{ "random": N }`, N distinct combinations picked by the seed (a fixed seed picks the same ones; without one, a random seed is drawn and answered). Without it the braces are plain text. The generations are one batch, capped by the server (`MAX_BATCH_GENERATIONS`) and counted against the quotas as a whole.',
		}),
	models: z
		.array(z.string(MODELS_MESSAGE).max(100, MODELS_MESSAGE), MODELS_MESSAGE)
		.min(2, MODELS_MESSAGE)
		.max(MAX_COMPARED_MODELS, MODELS_MESSAGE)
		.refine((ids) => new Set(ids).size === ids.length, MODELS_MESSAGE)
		.optional()
		.meta({
			description:
				"Two to four distinct model ids, instead of `model`: one generation each with the same prompt, ratio and (where the model takes one) seed, as one batch. Each model's own settings apply.",
		}),
	originalPrompt: PromptSchema.optional().meta({
		description:
			"With `prompt` taken from Enhance (`POST /api/prompts/enhance`): the prompt as written before, kept beside the one used in the generation's JSON and its recipe.",
	}),
});
export type CreateGenerationRequest = z.infer<typeof CreateGenerationRequestSchema>;
