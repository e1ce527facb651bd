// The administrator's people listing and per-person actions (`/api/admin/people`), in zod/mini so
// the People page (loaded on demand) parses the answers with the schemas the server checks with.

import { z } from "zod/mini";
import { MAX_PAGE_SIZE, PEOPLE_PAGE_SIZE } from "../core/page-sizes";
import {
	sharedMustBeNumber,
	sharedMustBeWholeNumber,
	sharedOneOf,
	sharedPeopleLimitAtLeast,
	sharedPeopleLimitAtMost,
	sharedPeopleOrder,
	sharedPeoplePageFirst,
	sharedPeoplePageTooLarge,
	sharedPeopleSearchTooLong,
	sharedQuotaActiveAtLeast,
	sharedQuotaActiveAtMost,
	sharedQuotaActiveWhole,
	sharedQuotaDailyAtLeast,
	sharedQuotaDailyAtMost,
	sharedQuotaDailyWhole,
} from "../i18n/messages";

/** The columns the listing sorts by, one per column of the table. */
export const PEOPLE_SORT_KEYS = [
	"email",
	"signedUp",
	"lastActive",
	"generations",
	"generationsThisMonth",
	"images",
	"bytes",
	"spend",
	"status",
] as const;
export type PeopleSortKey = (typeof PEOPLE_SORT_KEYS)[number];
export type SortOrder = "asc" | "desc";

/** The highest quota the administrator may set (the table's check says the same). */
export const MAX_ACTIVE_OVERRIDE = 1000;
export const MAX_DAILY_OVERRIDE = 100_000;

/** `GET /api/admin/people`: e-mail search, one sort column, a page of people (1 is the first). */
export const PeopleQuerySchema = z.object({
	search: z.optional(
		z.string().check(z.maxLength(320, { error: () => sharedPeopleSearchTooLong() })),
	),
	sort: z._default(
		z.enum(PEOPLE_SORT_KEYS, {
			error: () => sharedOneOf({ field: "sort", values: PEOPLE_SORT_KEYS.join(", ") }),
		}),
		"email",
	),
	order: z._default(z.enum(["asc", "desc"], { error: () => sharedPeopleOrder() }), "asc"),
	page: z._default(
		z.coerce
			.number({ error: () => sharedMustBeNumber({ field: "page" }) })
			.check(
				z.int({ error: () => sharedMustBeWholeNumber({ field: "page" }) }),
				z.minimum(1, { error: () => sharedPeoplePageFirst() }),
				z.maximum(1_000_000, { error: () => sharedPeoplePageTooLarge() }),
			),
		1,
	),
	limit: z._default(
		z.coerce.number({ error: () => sharedMustBeNumber({ field: "limit" }) }).check(
			z.int({ error: () => sharedMustBeWholeNumber({ field: "limit" }) }),
			z.minimum(1, { error: () => sharedPeopleLimitAtLeast() }),
			z.maximum(MAX_PAGE_SIZE, {
				error: () => sharedPeopleLimitAtMost({ max: String(MAX_PAGE_SIZE) }),
			}),
		),
		PEOPLE_PAGE_SIZE,
	),
});
export type PeopleQuery = z.infer<typeof PeopleQuerySchema>;

/** The generation quotas of one person: null is the server's default. */
const QuotaSchema = z.object({
	maxActive: z.nullable(z.int()),
	daily: z.nullable(z.int()),
});
export type PersonQuota = z.infer<typeof QuotaSchema>;

/** `PUT /api/admin/people/:id/quota`: both null restores the defaults. */
export const SetQuotaRequestSchema = z.object({
	maxActive: z.nullable(
		z.int({ error: () => sharedQuotaActiveWhole() }).check(
			z.minimum(1, { error: () => sharedQuotaActiveAtLeast() }),
			z.maximum(MAX_ACTIVE_OVERRIDE, {
				error: () => sharedQuotaActiveAtMost({ max: String(MAX_ACTIVE_OVERRIDE) }),
			}),
		),
	),
	daily: z.nullable(
		z.int({ error: () => sharedQuotaDailyWhole() }).check(
			z.minimum(0, { error: () => sharedQuotaDailyAtLeast() }),
			z.maximum(MAX_DAILY_OVERRIDE, {
				error: () => sharedQuotaDailyAtMost({ max: String(MAX_DAILY_OVERRIDE) }),
			}),
		),
	),
});

const PersonSchema = z.object({
	id: z.string(),
	email: z.string(),
	signedUpAt: z.string(),
	/** The latest of a generation made and a session used; null when never seen. */
	lastActiveAt: z.nullable(z.string()),
	generations: z.int(),
	generationsThisMonth: z.int(),
	images: z.int(),
	imageBytes: z.number(),
	/** US dollars: completed images times their model's price when they were made. */
	spend: z.number(),
	status: z.enum(["active", "disabled"]),
	/** The administrator: neither disabled nor deleted. */
	isAdmin: z.boolean(),
	quota: QuotaSchema,
});
export type Person = z.infer<typeof PersonSchema>;

export const PeoplePageSchema = z.object({
	items: z.array(PersonSchema),
	total: z.int(),
	page: z.int(),
	pageSize: z.int(),
	/** The server's defaults, which a person's quota replaces (daily 0: no daily limit). */
	defaultQuota: z.object({ maxActive: z.int(), daily: z.int() }),
});
export type PeoplePage = z.infer<typeof PeoplePageSchema>;

/** Every per-person action answers with the person as the listing shows them now. */
export const PersonActionResponseSchema = z.object({
	success: z.literal(true),
	person: PersonSchema,
});

export const DeletePersonResponseSchema = z.object({ success: z.literal(true) });
