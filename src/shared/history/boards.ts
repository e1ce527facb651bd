// Boards (decision 032): the requests and answers of /api/boards, in zod/mini, since the boards
// screens parse the answers in the browser (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import { MAX_SEARCH_LENGTH } from "../core/constants";
import { ASPECT_RATIO_VALUES } from "../generations/aspect-ratios";
import { sharedAspectRatioOneOf, sharedBoardLimit } from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

export const BOARD_KINDS = ["board", "smart"] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

/** `private`: its owner's (and the administrator's); `shared`: seen by everyone signed in. */
export const BOARD_VISIBILITIES = ["private", "shared"] as const;
export type BoardVisibility = (typeof BOARD_VISIBILITIES)[number];

export const BOARD_NAME_MAX_LENGTH = 80;

/** The most boards a person may keep, smart ones included: each one is a query on their list. */
export const MAX_BOARDS_PER_PERSON = 100;

/** What making a board beyond MAX_BOARDS_PER_PERSON answers, with VALIDATION_ERROR. */
export const boardLimitMessage = (options?: MessageOptions): string =>
	sharedBoardLimit({ limit: MAX_BOARDS_PER_PERSON }, options);

/** Its English text. */
export const BOARD_LIMIT_MESSAGE = boardLimitMessage({ language: "en" });

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, `YYYY-MM-DD`, that exists. */
function isCalendarDate(value: string): boolean {
	if (!DATE_PATTERN.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A day of the history's date filters, named by `field` in its message. */
export function boardDateSchema(field: string) {
	return z
		.string({ error: `${field} must be a date, YYYY-MM-DD` })
		.check(z.refine(isCalendarDate, `${field} must be a date, YYYY-MM-DD`));
}

/**
 * A smart board's saved search, as the history's filters take it: `q` anywhere in the prompt,
 * `aspectRatio`, `model` (a model's id), `favorites` only, and the days `from` and `to`, both
 * included, in the time zone of whoever looks.
 */
export const BoardQuerySchema = z
	.object(
		{
			q: z.optional(
				z
					.string({ error: "query.q must be text" })
					.check(
						z.trim(),
						z.maxLength(
							MAX_SEARCH_LENGTH,
							`query.q must be ${MAX_SEARCH_LENGTH} characters or less`,
						),
					),
			),
			aspectRatio: z.optional(
				z.enum(ASPECT_RATIO_VALUES, {
					error: () => `query.aspectRatio: ${sharedAspectRatioOneOf()}`,
				}),
			),
			model: z.optional(
				z
					.string({ error: "query.model must be the id of a model" })
					.check(z.maxLength(100, "query.model must be the id of a model")),
			),
			favorites: z.optional(z.boolean({ error: "query.favorites must be true or false" })),
			from: z.optional(boardDateSchema("query.from")),
			to: z.optional(boardDateSchema("query.to")),
		},
		{ error: "query must be an object of q, aspectRatio, model, favorites, from and to" },
	)
	.check(
		z.refine(
			(query) => query.from === undefined || query.to === undefined || query.from <= query.to,
			"query.to must not be before query.from",
		),
	);
export type BoardQuery = z.infer<typeof BoardQuerySchema>;

const BoardNameSchema = z
	.string({ error: "name must be text" })
	.check(
		z.trim(),
		z.minLength(1, "name: give the board a name."),
		z.maxLength(BOARD_NAME_MAX_LENGTH, `name must be ${BOARD_NAME_MAX_LENGTH} characters or less.`),
	);

const BoardVisibilitySchema = z.enum(BOARD_VISIBILITIES, {
	error: "visibility must be private or shared",
});

/** `POST /api/boards`: a `query` makes a smart board. */
export const CreateBoardRequestSchema = z.object({
	name: BoardNameSchema,
	visibility: z.optional(BoardVisibilitySchema),
	query: z.optional(BoardQuerySchema),
});
export type CreateBoardRequest = z.infer<typeof CreateBoardRequestSchema>;

/** `PATCH /api/boards/:id`: what is sent changes; `query` only a smart board's. */
export const UpdateBoardRequestSchema = z.object({
	name: z.optional(BoardNameSchema),
	visibility: z.optional(BoardVisibilitySchema),
	query: z.optional(BoardQuerySchema),
});
export type UpdateBoardRequest = z.infer<typeof UpdateBoardRequestSchema>;

/** `DELETE /api/boards/:id`: `withGenerations=true` deletes what is on it too. */
export const DeleteBoardQuerySchema = z.object({
	withGenerations: z.optional(
		z.enum(["true", "false"], { error: "withGenerations must be true or false" }),
	),
});

/** A board as the list and its page show it. Times are ISO 8601. */
export const BoardSchema = z.object({
	id: z.string(),
	name: z.string(),
	kind: z.enum(BOARD_KINDS),
	visibility: z.enum(BOARD_VISIBILITIES),
	/** A smart board's saved search; null for a board. */
	query: z.nullable(BoardQuerySchema),
	/** The generations on it (a smart board: that its search matches). */
	count: z.int(),
	/** Its newest favourite's thumbnail, else its newest image's; null while it has none. */
	coverUrl: z.nullable(z.string()),
	owner: z.object({ email: z.string() }),
	/** Whether the caller may change it: its owner and the administrator. */
	canChange: z.boolean(),
	createdAt: z.string(),
	updatedAt: z.string(),
});
export type Board = z.infer<typeof BoardSchema>;

/** `GET /api/boards`: the caller's own, then those others share, newest first. */
export const BoardListSchema = z.object({ items: z.array(BoardSchema) });
export type BoardList = z.infer<typeof BoardListSchema>;

/** `POST /api/boards/:id/generations` and `.../remove`: how many were added or removed. */
export const BoardMembershipResponseSchema = z.object({
	success: z.literal(true),
	changed: z.int(),
});

/** `DELETE /api/boards/:id`: how many generations were deleted with it (0 for the board only). */
export const DeleteBoardResponseSchema = z.object({
	success: z.literal(true),
	deletedGenerations: z.int(),
});
