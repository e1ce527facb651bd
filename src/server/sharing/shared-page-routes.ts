import type { Context } from "hono";
import { Hono } from "hono";
import { type ErrorCode, errorMessage } from "../../shared/core/errors";
import {
	ReportShareRequestSchema,
	SharedPageQuerySchema,
	sharedPagePath,
} from "../../shared/history/sharing";
import type { Language } from "../../shared/i18n/languages";
import {
	shareNoticeEnded,
	shareNoticeEndedTitle,
	shareNoticeHidden,
	shareNoticeHiddenTitle,
	shareNoticeNotFound,
	shareNoticeNotFoundTitle,
	shareNoticeRateLimitedTitle,
	shareNoticeSignIn,
	shareNoticeSignInTitle,
	sharePageReported,
} from "../../shared/i18n/messages";
import type { MessageOptions } from "../../shared/i18n/runtime";
import { readClientIp } from "../auth/forward-to-auth";
import { AppError } from "../errors/app-error";
import type { Gate, ViewerEnv } from "../http/app-env";
import { parseId, parseImageIndex, parseOrThrow, readJson } from "../http/request-input";
import { readRequestLanguage } from "../i18n/request-language";
import type { BoardPagePosition } from "./board-shares";
import type { ShareDeps } from "./create-share";
import { reportShare } from "./moderate-shares";
import {
	readSharedImage,
	SHARED_IMAGE_VARIANTS,
	type SharedImageVariant,
	viewSharedPage,
} from "./read-shared-page";
import { SHARE_OPERATIONS as OPERATIONS } from "./share-operations";
import { limitReport, limitSharedRequest } from "./share-rate-limits";
import {
	PREVIEW_KEYS_PATH,
	PREVIEW_KEYS_SCRIPT,
	renderNoticePage,
	renderSharedPage,
} from "./shared-page-html";

type SharedRouteOptions = { gate: Gate; deps: ShareDeps; trustProxy: boolean };

/** Search engines keep no shared page, image or answer; nothing is cached, so a revoke holds at once. */
function markUnindexed(context: Context) {
	context.header("X-Robots-Tag", "noindex, nofollow");
	context.header("Cache-Control", "private, no-store");
}

/** What each answer a link can give says on its page. */
type Notice = (o: MessageOptions) => { title: string; message: string };
const NOTICES: Partial<Record<ErrorCode, Notice>> = {
	NOT_FOUND: (o) => ({ title: shareNoticeNotFoundTitle(o), message: shareNoticeNotFound(o) }),
	SHARE_ENDED: (o) => ({ title: shareNoticeEndedTitle(o), message: shareNoticeEnded(o) }),
	SHARE_HIDDEN: (o) => ({ title: shareNoticeHiddenTitle(o), message: shareNoticeHidden(o) }),
	AUTH_ERROR: (o) => ({ title: shareNoticeSignInTitle(o), message: shareNoticeSignIn(o) }),
	RATE_LIMITED: (o) => ({
		title: shareNoticeRateLimitedTitle(o),
		message: errorMessage("RATE_LIMITED", o),
	}),
};

/** The language a page is written in: this browser's choice, else its Accept-Language. */
function readPageLanguage(context: Context): Language {
	// The answer differs by both: a cache must not give one visitor another's language.
	context.header("Vary", "accept-language, cookie");
	return readRequestLanguage(context.req.raw.headers);
}

function renderError(context: Context, error: unknown): Response {
	if (!(error instanceof AppError)) throw error;
	const describe = NOTICES[error.code];
	if (!describe) throw error;
	const language = readPageLanguage(context);
	const notice = describe({ language });
	if (error.retryAfterSeconds !== undefined) {
		context.header("Retry-After", String(error.retryAfterSeconds));
	}
	return context.html(renderNoticePage(notice.title, notice.message, language), error.status);
}

function parseVariant(value: string): SharedImageVariant {
	const variant = SHARED_IMAGE_VARIANTS.find((candidate) => candidate === value);
	if (!variant) throw new AppError("NOT_FOUND");
	return variant;
}

/** A report's reason from JSON, or from the shared page's plain form. */
async function readReport(context: Context): Promise<{ reason: string; isForm: boolean }> {
	const type = context.req.header("content-type")?.toLowerCase() ?? "";
	const isForm = type.startsWith("application/x-www-form-urlencoded");
	const body = isForm
		? await context.req.parseBody().catch(() => {
				throw new AppError("VALIDATION_ERROR");
			})
		: await readJson(context.req);
	return { reason: parseOrThrow(ReportShareRequestSchema, body).reason, isForm };
}

/** Which page of a board's link is asked for: `?after=` an older page's cursor, or `?before=`. */
function readBoardPosition(context: Context): BoardPagePosition {
	return parseOrThrow(SharedPageQuerySchema, context.req.query());
}

/** The image a page previews (`?image=<n>`, or `last` for the page's last, where ← crosses a page). */
function readPreviewIndex(context: Context, count: number): number | undefined {
	const asked = context.req.query("image");
	if (asked === "last" && count > 0) return count - 1;
	return asked !== undefined && /^\d{1,3}$/.test(asked) && Number(asked) < count
		? Number(asked)
		: undefined;
}

/** `/api/s/<token>` and its report: the shared page's data as JSON, open to anyone SHARING lets in. */
export function createSharedPageApiRoutes(options: SharedRouteOptions) {
	const { gate, deps, trustProxy } = options;
	const app = new Hono<ViewerEnv>();

	app.get("/s/:token", gate.allow(OPERATIONS.readSharedPage.access), async (context) => {
		markUnindexed(context);
		const token = context.req.param("token");
		await limitSharedRequest(deps, readClientIp(context, trustProxy), token);
		const viewer = context.get("optionalViewer");
		return context.json(await viewSharedPage(deps, token, viewer, readBoardPosition(context)));
	});

	app.post("/s/:token/report", gate.allow(OPERATIONS.reportShare.access), async (context) => {
		markUnindexed(context);
		const token = context.req.param("token");
		await limitReport(deps, readClientIp(context, trustProxy));
		const { reason, isForm } = await readReport(context);
		await reportShare(deps, token, context.get("optionalViewer"), reason);
		// The page's form goes back to the page, which says the report was sent.
		if (isForm) return context.redirect(`${sharedPagePath(token)}?reported=1`, 303);
		return context.json({ success: true as const }, 201);
	});

	return app;
}

/** `/s/<token>`, the shared page itself (HTML, no app bundle), and the images under it. */
export function createSharedPageRoutes(options: SharedRouteOptions) {
	const { gate, deps, trustProxy } = options;
	const app = new Hono<ViewerEnv>();
	const access = gate.allow(OPERATIONS.readSharedPage.access);

	app.get(PREVIEW_KEYS_PATH, (context) => {
		context.header("Cache-Control", "public, max-age=86400");
		return context.body(PREVIEW_KEYS_SCRIPT, 200, {
			"Content-Type": "text/javascript; charset=utf-8",
		});
	});

	app.get("/s/:token", async (context, next) => {
		markUnindexed(context);
		try {
			return await access(context, next);
		} catch (error) {
			return renderError(context, error);
		}
	});
	app.get("/s/:token", async (context) => {
		const token = context.req.param("token");
		try {
			await limitSharedRequest(deps, readClientIp(context, trustProxy), token);
			const position = readBoardPosition(context);
			const viewer = context.get("optionalViewer");
			const page = await viewSharedPage(deps, token, viewer, position);
			const imageIndex = readPreviewIndex(context, page.images.length);
			const language = readPageLanguage(context);
			const notice =
				context.req.query("reported") === undefined ? undefined : sharePageReported({ language });
			return context.html(
				renderSharedPage(page, token, { imageIndex, notice, position, language }),
			);
		} catch (error) {
			return renderError(context, error);
		}
	});

	/** One file through a link; a board's names the generation it is of. */
	const serveImage = async (context: Context<ViewerEnv>, generationId?: string) => {
		markUnindexed(context);
		const token = context.req.param("token") ?? "";
		await limitSharedRequest(deps, readClientIp(context, trustProxy), token);
		const index = parseImageIndex(context.req.param("index") ?? "");
		const variant = parseVariant(context.req.param("variant") ?? "");
		const viewer = context.get("optionalViewer");
		const image = await readSharedImage(deps, token, viewer, index, variant, generationId);
		return new Response(new Uint8Array(image.data), {
			headers: {
				"content-type": image.contentType,
				"content-length": String(image.data.length),
				"cache-control": "private, no-store",
				"x-robots-tag": "noindex, nofollow",
			},
		});
	};
	app.get("/s/:token/images/:index/:variant", access, (context) => serveImage(context));
	app.get("/s/:token/generations/:generationId/images/:index/:variant", access, (context) =>
		serveImage(context, parseId(context.req.param("generationId"))),
	);

	return app;
}
