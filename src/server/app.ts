import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { sql } from "kysely";
import type { PublicConfig } from "../shared/session";
import { type Auth, CLIENT_IP_HEADER } from "./auth/auth";
import type { Database } from "./db/database";
import { createGenerationRoutes } from "./generations/generation-routes";
import type { GenerationDeps } from "./generations/generation-service";
import { errorResponse, handleError } from "./http/errors";
import { refuseForeignOrigins } from "./http/origin-check";
import type { StaticSite } from "./http/static-site";
import type { Logger } from "./logger";

export type AppConfig = {
	baseUrl: string;
	/** Other origins allowed to send state-changing requests (TRUSTED_ORIGINS). */
	trustedOrigins: readonly string[];
	isGoogleEnabled: boolean;
	imageProvider: string;
	/** Take the client address from X-Forwarded-For (set only behind a proxy that overwrites it). */
	trustProxy: boolean;
	/** Largest JSON body the API accepts, in bytes. */
	maxBodyBytes?: number;
};

export type AppDeps = {
	database: Database;
	auth: Auth;
	logger: Logger;
	config: AppConfig;
	site?: StaticSite;
	generations?: GenerationDeps;
};

export type AppEnv = {
	Variables: {
		requestId: string;
	};
};

function resolveClientIp(request: Request, incoming: unknown, trustProxy: boolean): string {
	if (trustProxy) {
		// The proxy appends the address it saw; anything to its left could be forged by the client.
		const forwarded = request.headers.get("x-forwarded-for");
		const last = forwarded?.split(",").at(-1)?.trim();
		if (last) return last;
	}
	return (incoming as string | undefined) ?? "unknown";
}

/** Builds the HTTP app from its dependencies; nothing here reads the environment or connects. */
export function createApp(deps: AppDeps) {
	const { auth, database, logger, config } = deps;
	const app = new Hono<AppEnv>();
	const isHttps = config.baseUrl.startsWith("https://");

	app.use(requestId());
	app.use(
		secureHeaders({
			contentSecurityPolicy: {
				defaultSrc: ["'self'"],
				scriptSrc: ["'self'"],
				styleSrc: ["'self'", "'unsafe-inline'"],
				imgSrc: ["'self'", "data:", "blob:"],
				fontSrc: ["'self'"],
				connectSrc: ["'self'"],
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
	api.use(
		bodyLimit({
			maxSize: config.maxBodyBytes ?? 64 * 1024,
			onError: (context) => errorResponse(context, "PAYLOAD_TOO_LARGE"),
		}),
	);
	api.use(compress());
	// Better Auth checks origins on its own routes too; this covers every route, ours included.
	api.use(refuseForeignOrigins([config.baseUrl, ...config.trustedOrigins]));

	api.get("/health", async (context) => {
		try {
			await sql`select 1`.execute(database.db);
			return context.json({ status: "ok", database: database.kind });
		} catch (error) {
			logger.warn("health check failed", { error });
			return errorResponse(context, "SERVICE_UNAVAILABLE");
		}
	});

	api.get("/config", (context) => {
		const body: PublicConfig = {
			googleEnabled: config.isGoogleEnabled,
			imageProvider: config.imageProvider,
		};
		return context.json(body);
	});

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

	api.on(["GET", "POST"], "/auth/*", (context) => {
		let incoming: string | undefined;
		try {
			incoming = getConnInfo(context).remote.address;
		} catch {
			incoming = undefined;
		}
		const headers = new Headers(context.req.raw.headers);
		headers.set(CLIENT_IP_HEADER, resolveClientIp(context.req.raw, incoming, config.trustProxy));
		return auth.handler(new Request(context.req.raw, { headers }));
	});

	if (deps.generations) {
		api.route("/", createGenerationRoutes({ auth, deps: deps.generations }));
	}

	api.all("*", (context) => errorResponse(context, "NOT_FOUND"));

	app.route("/api", api);

	app.all("*", (context) => {
		const response = deps.site?.serve(context);
		if (response) return response;
		return context.text("Not found", 404);
	});

	return app;
}

export type App = ReturnType<typeof createApp>;
