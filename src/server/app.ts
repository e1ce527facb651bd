import { createHash } from "node:crypto";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { PublicConfig } from "../shared/account/session";
import { THEME_SCRIPT } from "../shared/account/theme";
import { createAccountRoutes } from "./accounts/account-routes";
import { createAccountSettingsRoutes } from "./accounts/account-settings-routes";
import { createApiTokenRoutes } from "./accounts/api-token-routes";
import { createAuditLogRoutes } from "./audit/audit-log-routes";
import { type Auth, hasSessionCookie } from "./auth/auth";
import { forwardToAuth } from "./auth/forward-to-auth";
import { createGate } from "./auth/request-viewer";
import { createBoardRoutes } from "./boards/boards-routes";
import type { Database } from "./db/database";
import { AppError } from "./errors/app-error";
import { createFileRoutes } from "./generations/files/file-routes";
import { createSignedFileRoutes } from "./generations/files/signed-file-routes";
import type { GenerationDeps } from "./generations/generation-deps";
import { deleteGenerations } from "./generations/request/delete-generations";
import { createGenerationRoutes } from "./generations/request/generation-routes";
import { createTrashRoutes } from "./generations/trash/trash-routes";
import type { AppEnv } from "./http/app-env";
import { hasBearerToken } from "./http/bearer-token";
import { errorResponse, handleError } from "./http/errors";
import { refuseForeignOrigins } from "./http/origin-check";
import { refuseUnstorableText } from "./http/refuse-unstorable-text";
import type { StaticSite } from "./http/static-site";
import { readRequestLanguage } from "./i18n/request-language";
import type { Logger } from "./logging/logger";
import { createHealthRoutes } from "./observability/health-routes";
import { measureRequests } from "./observability/http-metrics";
import type { Metrics } from "./observability/metrics";
import { createMetricsRoute } from "./observability/metrics-route";
import type { ReadinessCheck } from "./observability/readiness";
import { createApiDocsRoutes } from "./openapi/openapi-routes";
import { createPeopleRoutes } from "./people/people-routes";
import type { EnhanceSettings } from "./prompts/enhance-prompt";
import { createEnhanceRoutes } from "./prompts/enhance-routes";
import { createRecentPromptsRoutes } from "./prompts/recent-prompts-routes";
import { createStyleRoutes } from "./prompts/style-routes";
import type { PushDeps } from "./push/push-deliveries";
import { createPushRoutes } from "./push/push-routes";
import { createShareRoutes } from "./sharing/share-routes";
import type { SharingDeps } from "./sharing/share-settings";
import { createSharedPageApiRoutes, createSharedPageRoutes } from "./sharing/shared-page-routes";
import type { SignedUrls } from "./storage/signed-urls";
import { createUploadRoutes, isUploadRequest } from "./uploads/upload-routes";
import { createUsageRoutes } from "./usage/usage-routes";
import type { WebhookDeps } from "./webhooks/webhook-deliveries";
import { createWebhookRoutes } from "./webhooks/webhook-routes";

type AppConfig = {
	baseUrl: string;
	/** Other origins allowed to send state-changing requests (TRUSTED_ORIGINS). */
	trustedOrigins: readonly string[];
	isGoogleEnabled: boolean;
	imageProvider: string;
	/** More than one model is offered. */
	hasModelChoice: boolean;
	/** Deleting goes to the Trash (TRASH_DAYS above 0); without it the screens ask first. */
	hasTrash?: boolean;
	/** Take the client address from X-Forwarded-For (set only behind a proxy that overwrites it). */
	trustProxy: boolean;
	/** Largest JSON body the API accepts, in bytes. */
	maxBodyBytes?: number;
	isRateLimitEnabled: boolean;
	/** Until their address is verified, people may look around but not generate. */
	requireEmailVerification: boolean;
	adminEmail: string | undefined;
	/** Requests one API token may make in a minute (API_TOKEN_RATE_LIMIT_PER_MINUTE). */
	apiTokenRequestsPerMinute: number;
};

type AppDeps = {
	database: Database;
	auth: Auth;
	logger: Logger;
	config: AppConfig;
	site?: StaticSite;
	generations: GenerationDeps;
	webhooks: WebhookDeps;
	push: PushDeps;
	/** Shared links: the operator's switches, the prompt blocklist and the image check. */
	sharing: SharingDeps;
	/** The short-lived URLs image services fetch their images from (storage/signed-urls.ts). */
	signedUrls: SignedUrls;
	/** Enhance's chat endpoint (ENHANCE_*); absent, the button is hidden and the route answers 404. */
	enhance?: EnhanceSettings | undefined;
	observability: {
		metrics: Metrics;
		readiness: ReadinessCheck;
		/** GET /metrics exists only when METRICS_TOKEN is set, and asks for it. */
		metricsToken: string | undefined;
	};
};

/** The one inline script a page may run, the theme's decision before its first paint (vite.config.ts). */
const THEME_SCRIPT_SOURCE = `'sha256-${createHash("sha256").update(THEME_SCRIPT).digest("base64")}'`;

/** Builds the HTTP app from its dependencies; nothing here reads the environment or connects. */
export function createApp(deps: AppDeps) {
	const { auth, database, logger, config } = deps;
	const app = new Hono<AppEnv>();
	// Sent by GET /api/config, and inside every page (the boot state), so pages need not ask.
	const publicConfig: PublicConfig = {
		googleEnabled: config.isGoogleEnabled,
		imageProvider: config.imageProvider,
		emailVerificationRequired: config.requireEmailVerification,
		modelChoice: config.hasModelChoice,
		trash: config.hasTrash === true,
		sharing: deps.sharing.settings.mode,
		shareMaxDays: deps.sharing.settings.maxDays ?? null,
		enhance: deps.enhance !== undefined,
	};
	const isHttps = config.baseUrl.startsWith("https://");

	// First, so the time and the answer counted are the ones the caller got.
	app.use(measureRequests(deps.observability.metrics.http));
	app.use(requestId());
	app.use(
		secureHeaders({
			contentSecurityPolicy: {
				defaultSrc: ["'self'"],
				scriptSrc: ["'self'", THEME_SCRIPT_SOURCE],
				styleSrc: ["'self'", "'unsafe-inline'"],
				imgSrc: ["'self'", "data:", "blob:"],
				fontSrc: ["'self'"],
				connectSrc: ["'self'"],
				// The service worker (/sw.js) that shows Web Push notifications.
				workerSrc: ["'self'"],
				objectSrc: ["'none'"],
				baseUri: ["'self'"],
				formAction: ["'self'"],
				frameAncestors: ["'none'"],
			},
			xFrameOptions: "DENY",
			xContentTypeOptions: "nosniff",
			referrerPolicy: "strict-origin-when-cross-origin",
			strictTransportSecurity: isHttps ? "max-age=31536000; includeSubDomains" : false,
			crossOriginEmbedderPolicy: false,
		}),
	);
	app.onError((error, context) => handleError(error, context, logger));

	const api = new Hono<AppEnv>();
	const limitBody = bodyLimit({
		maxSize: config.maxBodyBytes ?? 64 * 1024,
		onError: (context) => errorResponse(context, "PAYLOAD_TOO_LARGE"),
	});
	// An upload has a larger limit of its own, applied once the route knows who asks.
	api.use((context, next) => (isUploadRequest(context.req) ? next() : limitBody(context, next)));
	// Within the body limit: an upload's form holds only its file, which is checked by content.
	const refuseUnstorable = refuseUnstorableText();
	api.use((context, next) =>
		isUploadRequest(context.req) ? next() : refuseUnstorable(context, next),
	);
	api.use(compress());
	// Better Auth checks origins on its own routes too; this covers every route, ours included.
	api.use(refuseForeignOrigins([config.baseUrl, ...config.trustedOrigins]));

	// Better Auth's own routes (sign-in, password, sessions) are for a browser: a token is refused
	// here, which is also why bearer requests may skip the Origin check. Our own routes are
	// guarded by the gate below.
	api.use("/auth/*", async (context, next) => {
		if (hasBearerToken(context.req.raw.headers)) throw new AppError("TOKEN_NOT_ALLOWED");
		return next();
	});

	api.route("/", createHealthRoutes({ database, logger, readiness: deps.observability.readiness }));

	api.get("/config", (context) => context.json(publicConfig));

	api.use("/auth/sign-in/social", async (context, next) => {
		if (config.isGoogleEnabled || context.req.method !== "POST") return next();
		// Without this, Better Auth answers with a provider-lookup error the person cannot act on.
		const body = (await context.req.raw
			.clone()
			.json()
			.catch(() => ({}))) as { provider?: unknown };
		if (body.provider === "google") return errorResponse(context, "GOOGLE_NOT_CONFIGURED");
		return next();
	});

	// The one gate that says who asks and what they may do, on every route of ours.
	const gate = createGate({
		auth,
		database,
		config: {
			adminEmail: config.adminEmail,
			requireEmailVerification: config.requireEmailVerification,
			tokenRequestsPerMinute: config.apiTokenRequestsPerMinute,
		},
	});

	// Before the catch-all below: it wraps some of Better Auth's endpoints with Atelier's rules.
	api.route(
		"/",
		createAccountRoutes({
			auth,
			database,
			gate,
			storage: deps.generations?.storage,
			config: {
				trustProxy: config.trustProxy,
				isRateLimitEnabled: config.isRateLimitEnabled,
			},
		}),
	);

	api.route("/", createApiTokenRoutes({ database, gate }));
	api.route("/", createAccountSettingsRoutes({ database, gate }));

	api.on(["GET", "POST"], "/auth/*", (context) => forwardToAuth(auth, context, config.trustProxy));

	api.route("/", createPeopleRoutes({ deps: { ...deps.generations, auth }, gate }));
	api.route("/", createGenerationRoutes({ gate, deps: deps.generations }));
	api.route("/", createFileRoutes({ gate, deps: deps.generations }));
	api.route(
		"/",
		createSignedFileRoutes({
			gate,
			storage: deps.generations.storage,
			signedUrls: deps.signedUrls,
		}),
	);
	api.route(
		"/",
		createBoardRoutes({
			gate,
			deps: deps.generations,
			deleteGenerations: (viewer, ids) => deleteGenerations(deps.generations, viewer, ids),
		}),
	);
	api.route("/", createTrashRoutes({ gate, deps: deps.generations }));
	api.route("/", createAuditLogRoutes({ gate, deps: deps.generations }));
	api.route("/", createUsageRoutes({ gate, deps: deps.generations }));
	api.route(
		"/",
		createUploadRoutes({
			gate,
			deps: { db: database.db, storage: deps.generations.storage, logger },
		}),
	);
	api.route("/", createApiDocsRoutes({ baseUrl: config.baseUrl }));
	api.route("/", createWebhookRoutes({ gate, deps: deps.webhooks }));
	api.route("/", createPushRoutes({ gate, auth, deps: deps.push }));
	const shareDeps = {
		...deps.sharing,
		database,
		storage: deps.generations.storage,
		logger,
		baseUrl: config.baseUrl,
	};
	api.route("/", createShareRoutes({ gate, deps: shareDeps }));
	api.route(
		"/",
		createSharedPageApiRoutes({ gate, deps: shareDeps, trustProxy: config.trustProxy }),
	);
	api.route(
		"/",
		createStyleRoutes({
			gate,
			deps: { database, operatorStyles: deps.generations.operatorStyles ?? [] },
		}),
	);
	api.route("/", createRecentPromptsRoutes({ gate, database }));
	api.route("/", createEnhanceRoutes({ gate, deps: { database, logger, enhance: deps.enhance } }));

	api.all("*", (context) => errorResponse(context, "NOT_FOUND"));

	app.route("/api", api);

	const { metrics, metricsToken } = deps.observability;
	if (metricsToken) app.route("/", createMetricsRoute({ metrics, token: metricsToken }));
	// The shared pages: plain HTML of their own, outside the web app.
	app.route("/", createSharedPageRoutes({ gate, deps: shareDeps, trustProxy: config.trustProxy }));

	app.all("*", (context) => {
		const response = deps.site?.serve(context, {
			publicConfig,
			hasSessionCookie: hasSessionCookie(context.req.raw.headers),
			language: readRequestLanguage(context.req.raw.headers),
		});
		if (response) return response;
		return context.text("Not found", 404);
	});

	return app;
}

export type App = ReturnType<typeof createApp>;
