// What the administrator's usage report answers (GET /api/admin/usage), in zod/mini like
// generation-responses.ts, for the usage screen to parse; and what each failure reason means.
import { z } from "zod/mini";
import {
	adminFailureCredentials,
	adminFailureCredentialsMeaning,
	adminFailureModelRemoved,
	adminFailureModelRemovedMeaning,
	adminFailureOther,
	adminFailureOtherMeaning,
	adminFailureRefused,
	adminFailureRefusedMeaning,
	adminFailureService,
	adminFailureServiceMeaning,
	adminFailureTimedOut,
	adminFailureTimedOutMeaning,
} from "../i18n/messages";

/** How many days the report covers, today included. */
export const USAGE_DAYS = 30;

/**
 * Why generations failed, grouped by the error catalogue's kinds (errors.ts, SPEC.md section 8)
 * where the stored message is one of theirs, plus the two the catalogue lists apart: a timeout and
 * a model taken out of the catalogue. Each with what it means, shown beside the failures chart, as
 * message functions, written in the page's language when called.
 */
export const FAILURE_REASONS = {
	TIMED_OUT: { label: adminFailureTimedOut, meaning: adminFailureTimedOutMeaning },
	VALIDATION_ERROR: { label: adminFailureRefused, meaning: adminFailureRefusedMeaning },
	AUTH_ERROR: { label: adminFailureCredentials, meaning: adminFailureCredentialsMeaning },
	API_ERROR: { label: adminFailureService, meaning: adminFailureServiceMeaning },
	MODEL_REMOVED: { label: adminFailureModelRemoved, meaning: adminFailureModelRemovedMeaning },
	UNKNOWN_ERROR: { label: adminFailureOther, meaning: adminFailureOtherMeaning },
} as const satisfies Record<string, { label: () => string; meaning: () => string }>;

export type FailureReason = keyof typeof FAILURE_REASONS;

export const FAILURE_REASON_VALUES = Object.keys(FAILURE_REASONS) as [
	FailureReason,
	...FailureReason[],
];

/** A calendar day in the report's time zone, `YYYY-MM-DD`. */
const DaySchema = z.string();

/** Generations made on one day with one model, by how they ended (queued and running count in total only). */
const DayModelCountsSchema = z.object({
	day: DaySchema,
	modelId: z.string(),
	completed: z.int(),
	failed: z.int(),
	total: z.int(),
});

const FailureCountSchema = z.object({
	day: DaySchema,
	reason: z.enum(FAILURE_REASON_VALUES),
	count: z.int(),
});

const CompletionTimeSchema = z.object({
	modelId: z.string(),
	/** Completed generations made in the window. */
	completed: z.int(),
	/** From creation to completion, the median, in seconds. */
	medianSeconds: z.number(),
});

/** Images stored by generations made on one day, and their bytes where known. */
const StoredDaySchema = z.object({ day: DaySchema, images: z.int(), bytes: z.number() });

const SpendDaySchema = z.object({ day: DaySchema, amount: z.number() });

const SpenderSchema = z.object({
	email: z.string(),
	/** Completed images in the window, of models with a recorded price. */
	images: z.int(),
	amount: z.number(),
});

/**
 * `GET /api/admin/usage`: the last USAGE_DAYS days in `timeZone`, oldest first. Every count is of
 * generations made (created) on that day. Bytes are unknown for images stored before sizes were
 * recorded (`imagesWithoutBytes`, left out of the bytes); spend is completed images times the
 * model's price when each generation was made. Images without a price (their model had none, or
 * they were made before prices were recorded) are counted in `unpricedImages` and left out of the
 * amounts.
 */
export const UsageReportSchema = z.object({
	timeZone: z.string(),
	days: z.array(DaySchema),
	/** Every model that appears in the report, with its label (the catalogue's, else the latest used). */
	models: z.array(z.object({ id: z.string(), label: z.string() })),
	generationsByDay: z.array(DayModelCountsSchema),
	failuresByDay: z.array(FailureCountSchema),
	completionTimes: z.array(CompletionTimeSchema),
	storage: z.object({
		/** Everything stored now, whenever it was made. */
		totalImages: z.int(),
		totalBytes: z.number(),
		imagesWithoutBytes: z.int(),
		/** What the Trash holds until it is purged, apart from the figures above. */
		trashImages: z.optional(z.int()),
		trashBytes: z.optional(z.number()),
		/** One entry per day of `days`. */
		byDay: z.array(StoredDaySchema),
	}),
	spend: z.object({
		/** The catalogue's currency (MODELS_FILE's pricePerImage). */
		currency: z.literal("USD"),
		total: z.number(),
		unpricedImages: z.int(),
		/** One entry per day of `days`. */
		byDay: z.array(SpendDaySchema),
	}),
	/** The ten people who spent most in the window, most first. */
	topSpenders: z.array(SpenderSchema),
	/** Enhance's rewrites asked in the window: all of them, and the twenty people who asked most. */
	enhance: z.optional(
		z.object({
			total: z.int(),
			byPerson: z.array(z.object({ email: z.string(), calls: z.int() })),
		}),
	),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;
