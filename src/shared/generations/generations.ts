import { z } from "zod";
import { MAX_BULK_GENERATIONS, MAX_SEARCH_LENGTH, POLLING_INTERVAL_MS } from "../core/constants";
import { AUDIT_LOG_PAGE_SIZE, GENERATIONS_PAGE_SIZE, MAX_PAGE_SIZE } from "../core/page-sizes";
import {
	sharedBatchId,
	sharedDayFormat,
	sharedFamilyImageIndex,
	sharedIdsAtLeastOne,
	sharedIdsAtMost,
	sharedIdsList,
	sharedOwnerEmail,
	sharedSearchTooLong,
	sharedTrueOrFalse,
} from "../i18n/messages";
import { STYLE_MESSAGES } from "../prompts/prompt-styles";
import { AspectRatioSchema } from "./generation-responses";

// The response schemas live in generation-responses.ts (zod/mini, parsed by the browser); they are
// re-exported so the server keeps one place to import the generations API's answers from. Browser code
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
		.max(MAX_SEARCH_LENGTH, {
			error: () => sharedSearchTooLong({ max: String(MAX_SEARCH_LENGTH) }),
		})
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
	.min(1, { error: () => sharedIdsAtLeastOne() })
	.max(MAX_BULK_GENERATIONS, {
		error: () => sharedIdsAtMost({ max: String(MAX_BULK_GENERATIONS) }),
	})
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
