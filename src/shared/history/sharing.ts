// Shared links (decision 036): the requests and answers of /api/shares, /api/s/<token> and the
// administrator's queue. zod/mini, since the share dialog and the account page parse the answers
// in the browser (docs/decisions/005-first-load-budget.md).
import { z } from "zod/mini";
import {
	accountShareTargetAllImages,
	accountShareTargetBoard,
	accountShareTargetDeleted,
	accountShareTargetImage,
	sharedMustBeText,
	sharedOneOf,
	sharedPageCursor,
	sharedReportReasonEmpty,
	sharedReportReasonTooLong,
	sharedShareBoardId,
	sharedShareBoardOnly,
	sharedShareGenerationId,
	sharedShareImageIndex,
	sharedShareTarget,
	sharedTrueOrFalse,
} from "../i18n/messages";
import type { MessageOptions } from "../i18n/runtime";

/** How long a link lives; `never` only where the operator sets no longest expiry. */
export const SHARE_EXPIRIES = ["1h", "1d", "7d", "30d", "never"] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];

/** Each expiry in milliseconds; `never` has none. */
export const SHARE_EXPIRY_MS: Record<Exclude<ShareExpiry, "never">, number> = {
	"1h": 3_600_000,
	"1d": 86_400_000,
	"7d": 7 * 86_400_000,
	"30d": 30 * 86_400_000,
};

/** Who may open shared links (SHARING): nobody, people signed in to this server, or anyone. */
export const SHARING_MODES = ["off", "signed-in", "public"] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

/** The longest reason a report may give. */
export const REPORT_REASON_MAX_LENGTH = 1000;

/** The shared page's address for a token. */
export function sharedPagePath(token: string): string {
	return `/s/${token}`;
}

/** A link to one generation, or one image of it. */
const GenerationTargetSchema = z.object({
	generationId: z.uuid({ error: () => sharedShareGenerationId() }),
	imageIndex: z.optional(
		z.int({ error: () => sharedShareImageIndex() }).check(z.minimum(0), z.maximum(3)),
	),
});

/** A link to a board: its page of generations, newest first, as the board holds them now. */
const BoardTargetSchema = z.strictObject(
	{ boardId: z.uuid({ error: () => sharedShareBoardId() }) },
	{ error: () => sharedShareBoardOnly() },
);

/** What a link shows: one generation, one image of it, or a board (decision 036). */
export const ShareTargetSchema = z.union([GenerationTargetSchema, BoardTargetSchema], {
	error: () =>
		sharedShareTarget({ generation: "{ generationId, imageIndex? }", board: "{ boardId }" }),
});
export type ShareTarget = z.infer<typeof ShareTargetSchema>;

/** The expiries a server offers: none beyond its longest (SHARE_MAX_DAYS), and `never` only without one. */
export function offeredShareExpiries(maxDays: number | null): ShareExpiry[] {
	if (maxDays === null) return [...SHARE_EXPIRIES];
	return SHARE_EXPIRIES.filter(
		(expiry) => expiry !== "never" && SHARE_EXPIRY_MS[expiry] <= maxDays * 86_400_000,
	);
}

/** `POST /api/shares`. */
export const CreateShareRequestSchema = z.object({
	target: ShareTargetSchema,
	expires: z.enum(SHARE_EXPIRIES, {
		error: () => sharedOneOf({ field: "expires", values: SHARE_EXPIRIES.join(", ") }),
	}),
	originals: z.boolean({ error: () => sharedTrueOrFalse({ field: "originals" }) }),
	showPrompt: z.boolean({ error: () => sharedTrueOrFalse({ field: "showPrompt" }) }),
});
export type CreateShareRequest = z.infer<typeof CreateShareRequestSchema>;

/** Where a link stands: live, past its expiry, revoked (or replaced), or hidden by the administrator. */
export const SHARE_STATES = ["live", "expired", "revoked", "hidden"] as const;

/** A link as its owner lists it. Its address exists only in the answer that made it: the server keeps a hash. */
export const ShareSchema = z.object({
	id: z.string(),
	/**
	 * A generation's link names it (and the image), a board's the board; what it names is null once
	 * it is deleted (the link has ended).
	 */
	target: z.object({
		generationId: z.nullable(z.string()),
		imageIndex: z.nullable(z.int()),
		boardId: z.nullable(z.string()),
	}),
	/** The generation's prompt, to say what the link shows; null for a board and once it is deleted. */
	prompt: z.nullable(z.string()),
	/** The board's name, for a board's link; null otherwise and once the board is deleted. */
	boardName: z.nullable(z.string()),
	originals: z.boolean(),
	showPrompt: z.boolean(),
	state: z.enum(SHARE_STATES),
	createdAt: z.string(),
	expiresAt: z.nullable(z.string()),
	views: z.int(),
	lastViewedAt: z.nullable(z.string()),
});
export type Share = z.infer<typeof ShareSchema>;

/**
 * What a link shows, in words, as the account page and the administrator's list name it, in the
 * language asked (else the page's).
 */
export function describeShareTarget(share: Share, options?: MessageOptions): string {
	if (share.target.boardId !== null) {
		return accountShareTargetBoard({ name: share.boardName ?? "" }, options);
	}
	// Once deleted, a generation's link and a board's look the same: both name nothing.
	if (share.target.generationId === null || share.prompt === null) {
		return accountShareTargetDeleted(options);
	}
	return share.target.imageIndex === null
		? accountShareTargetAllImages({ prompt: share.prompt }, options)
		: accountShareTargetImage(
				{ number: share.target.imageIndex + 1, prompt: share.prompt },
				options,
			);
}

/** `POST /api/shares` and `POST /api/shares/:id/rotate`: the link with its address, shown once. */
export const CreatedShareSchema = z.extend(ShareSchema, {
	token: z.string(),
	/** The shared page, absolute. */
	url: z.string(),
});
export type CreatedShare = z.infer<typeof CreatedShareSchema>;

/** `GET /api/shares`: the person's links, newest first. */
export const ShareListSchema = z.object({ items: z.array(ShareSchema) });
export type ShareList = z.infer<typeof ShareListSchema>;

/** One image as a shared page shows it: its display copy, and its original where allowed. */
const SharedImageSchema = z.object({
	url: z.string(),
	width: z.int(),
	height: z.int(),
	/** The original, when the link allows it; null otherwise. */
	originalUrl: z.nullable(z.string()),
	/** The prompt of the image's generation, when the link shows prompts; null otherwise. */
	prompt: z.nullable(z.string()),
});

/** `GET /api/s/<token>`: the prompt and settings only when the link shows them. */
export const SharedPageSchema = z.object({
	images: z.array(SharedImageSchema),
	prompt: z.nullable(z.string()),
	settings: z.nullable(
		z.object({
			model: z.string(),
			aspectRatio: z.string(),
			seed: z.nullable(z.number()),
			negativePrompt: z.nullable(z.string()),
		}),
	),
	createdAt: z.string(),
	expiresAt: z.nullable(z.string()),
	reportUrl: z.string(),
	/**
	 * A board's link: its name and the cursors of the pages around this one (`?after=` for older
	 * generations, `?before=` for newer ones), null where there is none; null for a generation's.
	 */
	board: z.nullable(
		z.object({
			name: z.string(),
			olderCursor: z.nullable(z.string()),
			newerCursor: z.nullable(z.string()),
		}),
	),
});
export type SharedPage = z.infer<typeof SharedPageSchema>;

/** `GET /api/s/<token>` (and the page): a board's link's page, after an older or before a newer cursor. */
export const SharedPageQuerySchema = z.object({
	after: z.optional(z.string({ error: () => sharedPageCursor({ field: "after" }) })),
	before: z.optional(z.string({ error: () => sharedPageCursor({ field: "before" }) })),
});

/** `POST /api/s/<token>/report`. */
export const ReportShareRequestSchema = z.object({
	reason: z.string({ error: () => sharedMustBeText({ field: "reason" }) }).check(
		z.trim(),
		z.minLength(1, { error: () => sharedReportReasonEmpty() }),
		z.maxLength(REPORT_REASON_MAX_LENGTH, {
			error: () => sharedReportReasonTooLong({ max: String(REPORT_REASON_MAX_LENGTH) }),
		}),
	),
});

/** A report's answer. */
export const ReportedShareSchema = z.object({ success: z.literal(true) });

/** A link as the administrator lists it: whose, and how many reports it has. */
export const AdminShareSchema = z.extend(ShareSchema, {
	ownerEmail: z.string(),
	reports: z.int(),
});
export type AdminShare = z.infer<typeof AdminShareSchema>;

export const AdminShareListSchema = z.object({ items: z.array(AdminShareSchema) });
export type AdminShareList = z.infer<typeof AdminShareListSchema>;

/** One report in the administrator's queue, with the link it is about. */
export const ShareReportSchema = z.object({
	id: z.string(),
	reason: z.string(),
	createdAt: z.string(),
	share: AdminShareSchema,
});
export type ShareReport = z.infer<typeof ShareReportSchema>;

export const ShareReportListSchema = z.object({ items: z.array(ShareReportSchema) });
export type ShareReportList = z.infer<typeof ShareReportListSchema>;
