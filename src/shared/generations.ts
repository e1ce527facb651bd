import { z } from "zod";
import { AspectRatioSchema } from "./generation-responses";
import { validatePrompt } from "./prompt";

// The response schemas live in generation-responses.ts (zod/mini, parsed by the browser); they are
// re-exported so the server keeps one place to import the generations API from. Browser code
// imports generation-responses.ts directly: this module's classic schemas would pull classic zod in.
export {
	AspectRatioSchema,
	type CreateGenerationResponse,
	CreateGenerationResponseSchema,
	type Generation,
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

/** A zod schema that applies `validatePrompt` and yields the trimmed prompt. */
export const PromptSchema = z.unknown().transform((value, context) => {
	const check = validatePrompt(value);
	if (!check.ok) {
		context.addIssue({ code: "custom", message: check.message });
		return z.NEVER;
	}
	return check.prompt;
});

/** `POST /api/generations`: the prompt is checked by the same rules the browser applies. */
export const CreateGenerationRequestSchema = z.object({
	prompt: PromptSchema,
	aspectRatio: AspectRatioSchema,
});
export type CreateGenerationRequest = z.input<typeof CreateGenerationRequestSchema>;

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

/** The uuid form generation ids take; anything else is answered 404 without a query. */
export const GenerationIdSchema = z.uuid();
