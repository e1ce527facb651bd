import { z } from "zod";
import { AspectRatioSchema } from "./aspect-ratios";
import { ErrorBodySchema } from "./errors";
import { PromptSchema } from "./prompt";

/** `POST /api/generations`: the prompt is checked by the same rules the browser applies. */
export const CreateGenerationRequestSchema = z.object({
	prompt: PromptSchema,
	aspectRatio: AspectRatioSchema,
});
export type CreateGenerationRequest = z.input<typeof CreateGenerationRequestSchema>;

export const CreateGenerationResponseSchema = z.discriminatedUnion("success", [
	z.object({ success: z.literal(true), id: z.string(), pollingUrl: z.string() }),
	z.object({ success: z.literal(false), error: ErrorBodySchema }),
]);
export type CreateGenerationResponse = z.infer<typeof CreateGenerationResponseSchema>;

export const GenerationStatusSchema = z.enum(["queued", "running", "completed", "failed"]);
export type GenerationStatus = z.infer<typeof GenerationStatusSchema>;

/** `GET {pollingUrl}` (SPEC.md section 3): `completed` with image URLs, `failed` with a message. */
export const PollResponseSchema = z.object({
	status: GenerationStatusSchema,
	results: z.array(z.string()),
	message: z.string().nullable(),
});
export type PollResponse = z.infer<typeof PollResponseSchema>;

export const GenerationImageSchema = z.object({
	url: z.string(),
	width: z.number().int(),
	height: z.number().int(),
	thumbnailUrl: z.string(),
	thumbnailWidth: z.number().int(),
	thumbnailHeight: z.number().int(),
});
export type GenerationImage = z.infer<typeof GenerationImageSchema>;

export const GenerationSchema = z.object({
	id: z.string(),
	prompt: z.string(),
	aspect_ratio: AspectRatioSchema,
	status: GenerationStatusSchema,
	error: z.string().nullable(),
	images: z.array(GenerationImageSchema),
	created_at: z.string(),
	completed_at: z.string().nullable(),
	api_id: z.string().nullable(),
	polling_url: z.string().nullable(),
	user_id: z.string(),
	/** Present in the administrator's list: whose generation this is. */
	owner_email: z.string().optional(),
});
export type Generation = z.infer<typeof GenerationSchema>;

export const GENERATIONS_PAGE_DEFAULT = 24;
export const GENERATIONS_PAGE_MAX = 100;

export const ListGenerationsQuerySchema = z.object({
	cursor: z.string().max(200).optional(),
	limit: z.coerce
		.number()
		.int()
		.min(1)
		.max(GENERATIONS_PAGE_MAX)
		.optional()
		.default(GENERATIONS_PAGE_DEFAULT),
});

export const GenerationPageSchema = z.object({
	items: z.array(GenerationSchema),
	nextCursor: z.string().nullable(),
	total: z.number().int(),
	today: z.number().int(),
});
export type GenerationPage = z.infer<typeof GenerationPageSchema>;

/** The uuid form generation ids take; anything else is answered 404 without a query. */
export const GenerationIdSchema = z.uuid();
