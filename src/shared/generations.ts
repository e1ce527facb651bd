import { z } from "zod";
import { ASPECT_RATIO_VALUES } from "./aspect-ratios";
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from "./batches";
import {
	MAX_BULK_GENERATIONS,
	MAX_PROMPT_LENGTH,
	MAX_SEARCH_LENGTH,
	POLLING_INTERVAL_MS,
} from "./constants";
import { AspectRatioSchema } from "./generation-responses";
import { IMAGE_COUNTS, MAX_SEED, QUALITIES } from "./generation-settings";
import {
	sharedActionOneOf,
	sharedAspectRatioOneOf,
	sharedBatchId,
	sharedBoardsList,
	sharedCountRange,
	sharedDayFormat,
	sharedFactorTwoOrFour,
	sharedFamilyImageIndex,
	sharedIdsList,
	sharedModelId,
	sharedModelsRange,
	sharedOwnerEmail,
	sharedQualityOneOf,
	sharedReferenceShape,
	sharedSeedRange,
	sharedStrengthRange,
	sharedTrueOrFalse,
	sharedVariationsShape,
} from "./i18n/messages";
import { GENERATION_ACTIONS } from "./image-input";
import { AUDIT_LOG_PAGE_SIZE, GENERATIONS_PAGE_SIZE, MAX_PAGE_SIZE } from "./page-sizes";
import { validateNegativePrompt, validatePrompt } from "./prompt";
import { STYLE_MESSAGES } from "./prompt-styles";
import { ExpandInputSchema, MaskInputSchema } from "./region-edit";

// The response schemas live in generation-responses.ts (zod/mini, parsed by the browser); they are
// re-exported so the server keeps one place to import the generations API from. Browser code
// imports generation-responses.ts directly: this module's classic schemas would pull classic zod in.
export {
	type ActiveGenerations,
	ActiveGenerationsSchema,
	AspectRatioSchema,
	type CreateGenerationResponse,
	CreateGenerationResponseSchema,
	type Generation,
	type GenerationFamily,
	GenerationFamilySchema,
	type GenerationImage,
	GenerationImageSchema,
	type GenerationPage,
	GenerationPageSchema,
	GenerationSchema,
	type GenerationStatus,
	GenerationStatusSchema,
	type PollResponse,
	PollResponseSchema,
} from "./generation-responses";

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

/** A query parameter sent empty (`ratio=`) counts as not sent. */
function emptyAsAbsent(value: unknown): unknown {
	return value === "" ? undefined : value;
}

/** A calendar day of the history's date filters, named by `field` in its message. */
function HistoryDaySchema(field: string) {
	const message = { error: () => sharedDayFormat({ field }) };
	return z
		.string(message)
		.regex(/^\d{4}-\d{2}-\d{2}$/, message)
		.refine((day) => {
			const date = new Date(`${day}T00:00:00Z`);
			return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
		}, message);
}

/** A keyset page of generations, as the history and the Trash read one: its cursor and size. */
function historyPageFields() {
	return {
		cursor: z.string().max(200).optional(),
		limit: z.coerce
			.number()
			.int()
			.min(1)
			.max(MAX_PAGE_SIZE)
			.optional()
			.default(GENERATIONS_PAGE_SIZE),
	};
}

/**
 * `GET /api/generations`: a cursor page of the history, filtered. `q` matches anywhere in the
 * prompt, any case; `owner` (an e-mail) is the administrator's filter by person.
 */
export const ListGenerationsQuerySchema = z.object({
	...historyPageFields(),
	q: z
		.string()
		.trim()
		.max(MAX_SEARCH_LENGTH, `Search text must be ${MAX_SEARCH_LENGTH} characters or less`)
		.optional(),
	ratio: z.preprocess(emptyAsAbsent, z.optional(AspectRatioSchema)),
	favorites: z.preprocess(
		emptyAsAbsent,
		z
			.enum(["true", "false"], { error: () => sharedTrueOrFalse({ field: "favorites" }) })
			.optional()
			.transform((value) => value === "true"),
	),
	model: z.preprocess(emptyAsAbsent, z.string().max(100).optional()),
	style: z.preprocess(
		emptyAsAbsent,
		z.string().max(100, { error: STYLE_MESSAGES.style }).optional().meta({
			description: "A style's id: the generations made with it.",
		}),
	),
	owner: z.preprocess(
		emptyAsAbsent,
		z
			.string()
			.trim()
			.toLowerCase()
			.pipe(z.email({ error: () => sharedOwnerEmail() }).max(254))
			.optional(),
	),
	batch: z.preprocess(
		emptyAsAbsent,
		z
			.uuid({ error: () => sharedBatchId() })
			.optional()
			.meta({
				description: "A batch's id (`batchId`): the generations one submission started together.",
			}),
	),
	board: z.preprocess(emptyAsAbsent, z.string().max(100).optional()).meta({
		description:
			"A board's id: its page, what is on it (a smart board: what its search matches), the other filters inside it. A board shared with you shows its owner's generations on it.",
	}),
	from: z.preprocess(emptyAsAbsent, HistoryDaySchema("from").optional()).meta({
		description: "Made on this day (YYYY-MM-DD, in `timeZone`) or later.",
	}),
	to: z.preprocess(emptyAsAbsent, HistoryDaySchema("to").optional()).meta({
		description: "Made on this day (YYYY-MM-DD, in `timeZone`) or earlier.",
	}),
});

const POLL_WAIT_MAX_MS = 25_000;

/**
 * `GET /api/generations/:id/status`: `wait` is how long an unfinished generation's poll may wait
 * for a change, in milliseconds, held to 0 to 25000; the browser's polling interval by default.
 * `after`, the last answer's `version`: what changed since that answer (even between two polls)
 * is answered at once.
 */
export const PollGenerationQuerySchema = z.object({
	after: z.string().max(64).optional().meta({
		description:
			"The `version` of the last answer: an answer that differs from it is sent at once, else the poll waits for a change.",
	}),
	wait: z
		.string()
		.optional()
		.transform((wait) =>
			wait === undefined
				? POLLING_INTERVAL_MS
				: Math.min(Math.max(Number(wait) || 0, 0), POLL_WAIT_MAX_MS),
		)
		.meta({
			type: "integer",
			minimum: 0,
			maximum: POLL_WAIT_MAX_MS,
			description: `Milliseconds an unfinished generation's poll may wait for a change (${POLLING_INTERVAL_MS} by default).`,
		}),
});

/**
 * `GET /api/generations/active`: `after` is the `version` of the last answer; with it, the answer
 * waits up to `wait` milliseconds (held to 0 to 25000, none by default) for something to change.
 */
export const ActiveGenerationsQuerySchema = z.object({
	after: z
		.string()
		.max(64)
		.optional()
		.meta({ description: "The `version` of the last answer: wait for a change from it." }),
	wait: z
		.string()
		.optional()
		.transform((wait) =>
			wait === undefined ? 0 : Math.min(Math.max(Number(wait) || 0, 0), POLL_WAIT_MAX_MS),
		)
		.meta({
			type: "integer",
			minimum: 0,
			maximum: POLL_WAIT_MAX_MS,
			description: "Milliseconds to wait for a change from `after` (0 by default: answer at once).",
		}),
});

const FAMILY_IMAGE_INDEX_MESSAGE = { error: () => sharedFamilyImageIndex() };

/**
 * `GET /api/generations/:id/family`: `imageIndex` (counted from 0, as in the download route) narrows
 * the children to those made from that one image; without it, those made from any of its images.
 */
export const GenerationFamilyQuerySchema = z.object({
	imageIndex: z
		.string(FAMILY_IMAGE_INDEX_MESSAGE)
		.regex(/^\d{1,2}$/, FAMILY_IMAGE_INDEX_MESSAGE)
		.transform(Number)
		.optional()
		.meta({
			type: "integer",
			minimum: 0,
			maximum: 99,
			description:
				"Only the generations made from this image of it (counted from 0, as in the download route); without it, those made from any of its images.",
		}),
});

/** `PUT /api/generations/:id/favorite`. */
export const SetFavoriteRequestSchema = z.object({
	favorite: z.boolean({ error: () => sharedTrueOrFalse({ field: "favorite" }) }),
});
export type SetFavoriteRequest = z.input<typeof SetFavoriteRequestSchema>;

/** Several generations at once (an archive, a bulk delete): 1 to 200 ids, duplicates counted once. */
const GenerationIdsSchema = z
	.array(z.string().max(100), { error: () => sharedIdsList() })
	.min(1, "Choose at least one generation")
	.max(MAX_BULK_GENERATIONS, `At most ${MAX_BULK_GENERATIONS} generations at a time`)
	.transform((ids) => [...new Set(ids)]);

export const GenerationIdsRequestSchema = z.object({ ids: GenerationIdsSchema });
/** What a browser sends: the ids as a plain list (a readonly one is copied). */
export type GenerationIdsRequest = z.input<typeof GenerationIdsRequestSchema>;

/** `GET /api/trash`: keyset pages, newest deletion first. */
export const TrashQuerySchema = z.object({
	...historyPageFields(),
});

/** `DELETE /api/generations/:id` and the bulk delete: `permanent=true` skips the Trash. */
export const DeleteQuerySchema = z.object({
	permanent: z
		.enum(["true", "false"], { error: () => sharedTrueOrFalse({ field: "permanent" }) })
		.optional()
		.transform((value) => value === "true"),
});

/** `GET /api/admin/audit-log`. */
export const AuditLogQuerySchema = z.object({
	cursor: z.string().max(200).optional(),
	limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(AUDIT_LOG_PAGE_SIZE),
});

/** The uuid form generation ids take; anything else is answered 404 without a query. */
export const GenerationIdSchema = z.uuid();
