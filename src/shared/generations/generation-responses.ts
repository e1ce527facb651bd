// What the generations API answers, as the browser parses it, and the aspect ratio it takes. Written with zod/mini, whose schemas
// tree-shake to a few kilobytes, so the generator can parse them on the first page without the
// twenty kilobytes of classic zod (docs/decisions/005-first-load-budget.md). The server's request
// schemas stay classic in generations.ts, which re-exports these.
import { z } from "zod/mini";
import type { ErrorBody, ErrorEnvelope } from "../core/errors";
import { sharedAspectRatioOneOf } from "../i18n/messages";
import { GenerationParentSchema } from "../image-input/image-input";
import { ASPECT_RATIO_VALUES } from "./aspect-ratios";
import { QUALITIES } from "./generation-settings";
import { GenerationRegionSchema } from "./region-edit";

export const AspectRatioSchema = z.enum(ASPECT_RATIO_VALUES, {
	error: () => sharedAspectRatioOneOf(),
});

export const ErrorBodySchema: z.ZodMiniType<ErrorBody> = z.object({
	code: z.string(),
	message: z.string(),
});

/** The envelope of every error answer (its type is in errors.ts, which has no schema library). */
export const ErrorEnvelopeSchema: z.ZodMiniType<ErrorEnvelope> = z.object({
	success: z.literal(false),
	error: ErrorBodySchema,
});

export const QualitySchema = z.enum(QUALITIES);

/** The model a generation was made with: its id and its label at the time. */
export const GenerationModelSchema = z.object({ id: z.string(), label: z.string() });
export type GenerationModel = z.infer<typeof GenerationModelSchema>;

/**
 * The settings a generation was made with. `seed` is the seed actually used (null where the model
 * takes none); `negativePrompt` and `quality` are null when not used.
 */
export const GenerationSettingsSchema = z.object({
	count: z.int(),
	seed: z.nullable(z.number()),
	negativePrompt: z.nullable(z.string()),
	quality: z.nullable(QualitySchema),
});
export type GenerationSettings = z.infer<typeof GenerationSettingsSchema>;

export const CreateGenerationResponseSchema = z.discriminatedUnion("success", [
	z.object({
		success: z.literal(true),
		id: z.string(),
		pollingUrl: z.string(),
		model: z.optional(GenerationModelSchema),
		settings: z.optional(GenerationSettingsSchema),
	}),
	z.object({ success: z.literal(false), error: ErrorBodySchema }),
]);
export type CreateGenerationResponse = z.infer<typeof CreateGenerationResponseSchema>;

/** `POST /api/generations` with `variations` or `models`: the batch and each generation started. */
export const CreateBatchResponseSchema = z.object({
	success: z.literal(true),
	batchId: z.string(),
	/**
	 * The seed the batch's random picks and seeded images follow: the one asked for, or the one
	 * drawn for it; null when nothing in it follows one (decision 038).
	 */
	seed: z.nullable(z.number()),
	generations: z.array(
		z.object({
			id: z.string(),
			pollingUrl: z.string(),
			prompt: z.string(),
			model: GenerationModelSchema,
			settings: GenerationSettingsSchema,
		}),
	),
});
export type CreateBatchResponse = z.infer<typeof CreateBatchResponseSchema>;

/** What `POST /api/generations` answers: one generation, or a batch when asked for one. */
export const StartGenerationsAnswerSchema = z.union([
	CreateGenerationResponseSchema,
	CreateBatchResponseSchema,
]);

export const GenerationStatusSchema = z.enum(["queued", "running", "completed", "failed"]);
export type GenerationStatus = z.infer<typeof GenerationStatusSchema>;

/** The statuses of a generation that is not finished: waiting in the queue or being made. */
export const ACTIVE_GENERATION_STATUSES: GenerationStatus[] = ["queued", "running"];

/** Whether a generation in this status is still to finish: queued or running. */
export function isInProgress(status: GenerationStatus): boolean {
	return ACTIVE_GENERATION_STATUSES.includes(status);
}

/**
 * Where an unfinished generation is: `queued` waiting (in Atelier's queue, or a running one in its
 * provider's queue), `starting` claimed by a run that has heard nothing from the provider yet (or
 * whose provider says it is getting ready: Replicate booting a machine), `running` the provider at
 * work, `saving` its images being copied into Atelier's storage.
 */
export const PROGRESS_STAGES = ["queued", "starting", "running", "saving"] as const;
export const ProgressStageSchema = z.enum(PROGRESS_STAGES);
export type ProgressStage = z.infer<typeof ProgressStageSchema>;

/**
 * What is known of an unfinished generation, each field null where unknown: its stage; `position`,
 * how many queued generations will start before it (0 when it is next); `percent` of the whole
 * generation as the provider reports it (never decreasing); the provider's `step` of `steps`; and
 * `previewUrl`, the latest frame of the image being made. Null once the generation has finished.
 */
export const GenerationProgressSchema = z.object({
	stage: ProgressStageSchema,
	position: z.nullable(z.int()),
	percent: z.nullable(z.number()),
	step: z.nullable(z.int()),
	steps: z.nullable(z.int()),
	previewUrl: z.nullable(z.string()),
});
export type GenerationProgress = z.infer<typeof GenerationProgressSchema>;

/** Optional where the browser parses it, so a server that does not report it is read the same way. */
const OptionalProgressSchema = z.optional(z.nullable(GenerationProgressSchema));

/**
 * What this server answers to `GET {pollingUrl}` (SPEC.md section 3): `completed` with image URLs,
 * `failed` with a message. The browser reads every poll with the wider PollAnswerSchema below.
 */
export const PollResponseSchema = z.object({
	status: GenerationStatusSchema,
	results: z.array(z.string()),
	message: z.nullable(z.string()),
	progress: z.nullable(GenerationProgressSchema),
	model: GenerationModelSchema,
	settings: GenerationSettingsSchema,
	/** A short digest of the rest of the answer: send it back as `after` with the next poll. */
	version: z.string(),
});
export type PollResponse = z.infer<typeof PollResponseSchema>;

/**
 * What the browser accepts from a poll, in both of its features: the wider shape of SPEC.md
 * section 3 (results as URLs or as objects with url or src, any status), of which this server's
 * PollResponse is one case. `readPollOutcome` in generation-answers.ts says what an answer means.
 */
export const PollAnswerSchema = z.object({
	status: z.string(),
	results: z.optional(
		z.nullable(
			z.array(
				z.union([
					z.string(),
					z.object({
						url: z.optional(z.nullable(z.string())),
						src: z.optional(z.nullable(z.string())),
					}),
				]),
			),
		),
	),
	message: z.optional(z.nullable(z.string())),
	progress: OptionalProgressSchema,
	/** This server's digest of the answer, sent back as `after`; other servers of SPEC.md's shape have none. */
	version: z.optional(z.string()),
});

/**
 * One image of a generation. `url` is the original (what a download gives); `displayUrl` is its
 * WebP display copy, long side at most 1600 px, which the screens show. Images stored before
 * display copies were made have none: show the original then.
 */
export const GenerationImageSchema = z.object({
	url: z.string(),
	width: z.int(),
	height: z.int(),
	displayUrl: z.optional(z.string()),
	displayWidth: z.optional(z.int()),
	displayHeight: z.optional(z.int()),
	thumbnailUrl: z.string(),
	thumbnailWidth: z.int(),
	thumbnailHeight: z.int(),
});
export type GenerationImage = z.infer<typeof GenerationImageSchema>;

export const GenerationSchema = z.object({
	id: z.string(),
	prompt: z.string(),
	aspect_ratio: AspectRatioSchema,
	status: GenerationStatusSchema,
	error: z.nullable(z.string()),
	images: z.array(GenerationImageSchema),
	created_at: z.string(),
	completed_at: z.nullable(z.string()),
	api_id: z.nullable(z.string()),
	polling_url: z.nullable(z.string()),
	user_id: z.string(),
	/** The owner's star; only the owner can change it. */
	is_favorite: z.boolean(),
	/** Present in the administrator's list: whose generation this is. */
	owner_email: z.optional(z.string()),
	model: GenerationModelSchema,
	settings: GenerationSettingsSchema,
	progress: z.nullable(GenerationProgressSchema),
	/** What it was made from (image-input.ts), null when made from a prompt alone. */
	parent: z.nullable(GenerationParentSchema),
	/** For `edit-region` and `expand`: the source, the mask and the frame (region-edit.ts). */
	region: z.optional(GenerationRegionSchema),
	/** How many generations were made from its images, deleted ones (and the Trash's) not counted. */
	childrenCount: z.int(),
	/** When its owner (or the administrator) moved it to the Trash; only on one in the Trash. */
	deletedAt: z.optional(z.string()),
	/** The style it was made with (its name then); null without one. */
	style: z.nullable(z.object({ id: z.string(), name: z.string() })),
	/** The batch it was started in with others (variations, or models side by side); null when alone. */
	batchId: z.nullable(z.string()),
	/** Made from an enhanced prompt: the prompt as the person had written it; absent otherwise. */
	originalPrompt: z.optional(z.string()),
});
export type Generation = z.infer<typeof GenerationSchema>;

/**
 * `GET /api/generations/:id/family`: the generation it was made from (null when made from a prompt
 * or an upload, or when that generation was deleted) and those made from it, newest first, each
 * as the history lists it.
 */
export const GenerationFamilySchema = z.object({
	parent: z.nullable(GenerationSchema),
	children: z.array(GenerationSchema),
});
export type GenerationFamily = z.infer<typeof GenerationFamilySchema>;

export const GenerationPageSchema = z.object({
	items: z.array(GenerationSchema),
	nextCursor: z.nullable(z.string()),
	total: z.int(),
	today: z.int(),
});
export type GenerationPage = z.infer<typeof GenerationPageSchema>;

/** One of a person's unfinished generations, as `GET /api/generations/active` lists it. */
export const ActiveGenerationSchema = z.object({
	id: z.string(),
	status: GenerationStatusSchema,
	progress: z.nullable(GenerationProgressSchema),
});
export type ActiveGeneration = z.infer<typeof ActiveGenerationSchema>;

/**
 * `GET /api/generations/active`: the person's queued and running generations, oldest first, and
 * `version`, which changes whenever they do (sent back as `after` to wait for the next change).
 */
export const ActiveGenerationsSchema = z.object({
	count: z.int(),
	items: z.array(ActiveGenerationSchema),
	version: z.string(),
});
export type ActiveGenerations = z.infer<typeof ActiveGenerationsSchema>;
