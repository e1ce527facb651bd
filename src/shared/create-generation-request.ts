// `POST /api/generations`: what a start asks for (the prompt, its settings, a reference image, a
// region edit's mask or frame, a batch), parsed by the server's routes and typed for the browser's.
import { z } from "zod";
import { ASPECT_RATIO_MESSAGE, ASPECT_RATIO_VALUES } from "./aspect-ratios";
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from "./batches";
import { MAX_PROMPT_LENGTH } from "./constants";
import { IMAGE_COUNTS, MAX_SEED, QUALITIES } from "./generation-settings";
import { GENERATION_ACTIONS } from "./image-input";
import { validateNegativePrompt, validatePrompt } from "./prompt";
import { STYLE_MESSAGES } from "./prompt-styles";
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

const VARIATIONS_MESSAGE =
	'variations must be "all" or { "random": N }, N a whole number from 1 to 100';
const MODELS_MESSAGE = `models must be ${MIN_COMPARED_MODELS} to ${MAX_COMPARED_MODELS} distinct model ids`;
const BOARDS_MESSAGE = "boards must be a list of board ids";
/** The most boards a new generation may be put on at once. */
const MAX_NEW_GENERATION_BOARDS = 20;
const SEED_MESSAGE = `seed must be a whole number from 0 to ${MAX_SEED}, or -1 for a random seed`;

const REFERENCE_MESSAGE =
	'reference must be { "uploadId" } or { "generationId", "imageIndex" } (the image counted from 0)';

/**
 * The image a generation starts from: an upload of the person's (`POST /api/uploads`), or one image
 * of one of their generations, counted from 0 as in the download route. Only the shape is checked
 * here; whose it is, and whether the image exists, the service says.
 */
export const GenerationReferenceSchema = z.union(
	[
		z.strictObject({
			uploadId: z.string({ error: REFERENCE_MESSAGE }).max(100, REFERENCE_MESSAGE),
		}),
		z.strictObject({
			generationId: z.string({ error: REFERENCE_MESSAGE }).max(100, REFERENCE_MESSAGE),
			imageIndex: z
				.number({ error: REFERENCE_MESSAGE })
				.int(REFERENCE_MESSAGE)
				.min(0, REFERENCE_MESSAGE)
				.max(99, REFERENCE_MESSAGE),
		}),
	],
	{ error: REFERENCE_MESSAGE },
);
export type GenerationReference = z.infer<typeof GenerationReferenceSchema>;

const STRENGTH_MESSAGE = "strength must be a number from 0 to 1";
const ACTION_MESSAGE = `action must be one of ${GENERATION_ACTIONS.join(", ")}`;
const FACTOR_MESSAGE = "factor must be 2 or 4";

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
	aspectRatio: z.enum(ASPECT_RATIO_VALUES, { error: ASPECT_RATIO_MESSAGE }).optional().meta({
		description:
			"Required, except with a reference: a variation and an upscale keep the parent's ratio, an edit the reference's.",
	}),
	model: z
		.string({ error: "model must be the id of a model" })
		.max(100, "model must be the id of a model")
		.optional(),
	count: z
		.number({ error: `count must be a whole number from 1 to ${IMAGE_COUNTS.length}` })
		.int(`count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.min(1, `count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.max(IMAGE_COUNTS.length, `count must be a whole number from 1 to ${IMAGE_COUNTS.length}`)
		.optional(),
	seed: z
		.number({ error: SEED_MESSAGE })
		.int(SEED_MESSAGE)
		.min(-1, SEED_MESSAGE)
		.max(MAX_SEED, SEED_MESSAGE)
		.nullable()
		.optional()
		.transform((seed) => (seed === undefined || seed === null || seed === -1 ? null : seed)),
	negativePrompt: NegativePromptSchema.optional().transform((value) => value ?? null),
	quality: z
		.enum(QUALITIES, { error: `quality must be one of ${QUALITIES.join(", ")}` })
		.nullable()
		.optional()
		.transform((quality) => quality ?? null),
	reference: GenerationReferenceSchema.optional(),
	strength: z
		.number({ error: STRENGTH_MESSAGE })
		.min(0, STRENGTH_MESSAGE)
		.max(1, STRENGTH_MESSAGE)
		.optional()
		.meta({
			description:
				"How far an edit may move from its reference, 0 (keep it) to 1 (ignore it); 0.6 by default. Variations have their own.",
		}),
	action: z.enum(GENERATION_ACTIONS, { error: ACTION_MESSAGE }).optional().meta({
		description:
			"What to do with `reference`: make variations close to it or freer from it, upscale it, or edit it with the prompt (the default with a reference).",
	}),
	factor: z
		.union([z.literal(2), z.literal(4)], { error: FACTOR_MESSAGE })
		.optional()
		.meta({ description: "For `upscale`: 2 (the default) or 4 times the width and height." }),
	boards: z
		.array(z.string({ error: BOARDS_MESSAGE }).max(100, BOARDS_MESSAGE), { error: BOARDS_MESSAGE })
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
	style: z.string({ error: STYLE_MESSAGES.style }).max(100, STYLE_MESSAGES.style).optional().meta({
		description:
			"A style's id (`GET /api/styles`): the provider receives the prompt in the style's template and its negative part; the generation keeps the prompt as typed and the style's name.",
	}),
	variations: z
		.union(
			[
				z.literal("all"),
				z.strictObject({
					random: z
						.number({ error: VARIATIONS_MESSAGE })
						.int(VARIATIONS_MESSAGE)
						.min(1, VARIATIONS_MESSAGE)
						.max(100, VARIATIONS_MESSAGE),
				}),
			],
			{ error: VARIATIONS_MESSAGE },
		)
		.optional()
		.meta({
			description:
				'Expands the prompt\'s `{a|b|c}` choices: `"all"`, one generation per combination; `{ "random": N }`, N distinct combinations picked by the seed (a fixed seed picks the same ones; without one, a random seed is drawn and answered). Without it the braces are plain text. The generations are one batch, capped by the server (`MAX_BATCH_GENERATIONS`) and counted against the quotas as a whole.',
		}),
	models: z
		.array(z.string({ error: MODELS_MESSAGE }).max(100, MODELS_MESSAGE), { error: MODELS_MESSAGE })
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
