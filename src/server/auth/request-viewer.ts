import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { authRefusedTokenRateLimit, authRefusedTokenScope } from "../../shared/i18n/messages";
import type { Database } from "../db/database";
import { countInWindow } from "../db/rate-limit-windows";
import { AppError } from "../errors/app-error";
import { BROWSER_ACCESS } from "../http/api-operations";
import type { Gate, RouteAccess, ViewerEnv } from "../http/app-env";
import { hasBearerToken, readBearerToken } from "../http/bearer-token";
import { formatAlternatives } from "../i18n/request-language";
import { isPersonDisabled } from "../person/person-controls";
import type { Viewer } from "../person/viewer";
import { isAdministrator } from "./administrator";
import { findUsableApiToken, type ValidApiToken } from "./api-tokens";
import type { Auth } from "./auth";

type ViewerConfig = {
	adminEmail: string | undefined;
	requireEmailVerification: boolean;
	/** Requests one token may make in a minute (API_TOKEN_RATE_LIMIT_PER_MINUTE). */
	tokenRequestsPerMinute: number;
};

const RATE_LIMIT_WINDOW_SECONDS = 60;
const RATE_LIMIT_POLICY = "per-token";

/**
 * The person a valid token acts for, or undefined when they can no longer use it. The one place
 * a token's owner is looked up: a check that a person may no longer act (a disabled account, say)
 * belongs here, so every token request is refused at once.
 */
export async function resolveTokenOwner(
	database: Database,
	token: ValidApiToken,
	adminEmail: string | undefined,
): Promise<{ viewer: Viewer; emailVerified: boolean } | undefined> {
	const user = await database.db
		.selectFrom("user")
		.select(["id", "email", "emailVerified"])
		.where("id", "=", token.userId)
		.executeTakeFirst();
	if (!user || (await isPersonDisabled(database.db, user.id))) return undefined;
	return {
		viewer: {
			id: user.id,
			email: user.email,
			isAdmin: await isAdministrator(database.db, user, adminEmail),
		},
		emailVerified: user.emailVerified,
	};
}

/**
 * Counts the request against the token's limit, across every server process (the count is in the
 * database), and answers with the limit's fields of draft-ietf-httpapi-ratelimit-headers-10
 * (`RateLimit-Policy: "per-token";q=60;w=60` and `RateLimit: "per-token";r=<left>;t=<seconds>`);
 * over the limit, 429 with Retry-After.
 */
async function countTokenRequest(
	context: Context,
	database: Database,
	token: ValidApiToken,
	limit: number,
): Promise<void> {
	const { count, resetSeconds } = await countInWindow(
		database.db,
		`api-token:${token.id}`,
		RATE_LIMIT_WINDOW_SECONDS,
	);
	const remaining = Math.max(0, limit - count);
	context.header(
		"RateLimit-Policy",
		`"${RATE_LIMIT_POLICY}";q=${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
	);
	context.header("RateLimit", `"${RATE_LIMIT_POLICY}";r=${remaining};t=${resetSeconds}`);
	if (count > limit) {
		throw new AppError(
			"RATE_LIMITED",
			(options) => authRefusedTokenRateLimit({ limit, count: resetSeconds }, options),
			{ retryAfterSeconds: Math.max(1, resetSeconds) },
		);
	}
}

/**
 * The session a request carries, as our routes read it: none when signed out, and none for a
 * person the administrator disabled. Disabling deletes their sessions as well; this check also
 * covers a session made while the administrator was disabling them, in any server process.
 */
async function readActiveSession(auth: Auth, database: Database, headers: Headers) {
	const session = await auth.api.getSession({ headers });
	if (!session || (await isPersonDisabled(database.db, session.user.id))) return null;
	return session;
}

/**
 * The one gate that says who asks and what they may do, for every route of ours: `Authorization:
 * Bearer <token>` (checked, counted against the token's rate limit, refused on browser-only
 * routes and held to the route's scopes), else the browser's session (the administrator's alone
 * on their routes); either held to a verified address where the route needs one. A disabled
 * person is nobody here. A request that presents a token is never read as a session, so a bad
 * token is a 401 even from a signed-in browser. A token acts as its owner only: the
 * administrator's reach over others is their browser session's.
 */
export function createGate(options: {
	auth: Auth;
	database: Database;
	config: ViewerConfig;
}): Gate {
	const { auth, database, config } = options;
	const refuseUnverified = (access: RouteAccess, emailVerified: boolean) => {
		if (access.needsVerifiedEmail && config.requireEmailVerification && !emailVerified) {
			throw new AppError("EMAIL_NOT_VERIFIED");
		}
	};
	const allow = (access: RouteAccess) =>
		createMiddleware<ViewerEnv>(async (context, next) => {
			const headers = context.req.raw.headers;
			if (hasBearerToken(headers)) {
				const presented = readBearerToken(headers);
				const token = presented ? await findUsableApiToken(database.db, presented) : undefined;
				const owner = token
					? await resolveTokenOwner(database, token, config.adminEmail)
					: undefined;
				if (!token || !owner) throw new AppError("AUTH_ERROR");
				await countTokenRequest(context, database, token, config.tokenRequestsPerMinute);
				if (access.scopes.length === 0) throw new AppError("TOKEN_NOT_ALLOWED");
				if (!access.scopes.some((scope) => token.scopes.includes(scope))) {
					const needed = access.scopes.map((scope) => `"${scope}"`);
					throw new AppError("TOKEN_SCOPE_MISSING", (options) =>
						authRefusedTokenScope({ scopes: formatAlternatives(needed, options) }, options),
					);
				}
				refuseUnverified(access, owner.emailVerified);
				// A token acts as its owner only: the administrator's reach over everyone's
				// generations is their browser session's, never a token's (decision 024).
				const viewer = { ...owner.viewer, isAdmin: false };
				context.set("viewer", viewer);
				context.set("optionalViewer", viewer);
				context.set("isStillAllowed", async () => {
					const current = await findUsableApiToken(database.db, presented ?? "");
					if (!current) return false;
					const currentOwner = await resolveTokenOwner(database, current, config.adminEmail);
					return currentOwner?.viewer.id === viewer.id;
				});
				return next();
			}
			const session = await readActiveSession(auth, database, headers);
			if (!session) {
				if (!access.isOpen) throw new AppError(access.signedOutCode ?? "AUTH_ERROR");
				context.set("optionalViewer", undefined);
				return next();
			}
			// Anyone but the administrator learns nothing of their routes, not even that they exist.
			if (access.isAdminOnly && !session.user.isAdmin) throw new AppError("NOT_FOUND");
			refuseUnverified(access, session.user.emailVerified);
			const viewer = {
				id: session.user.id,
				email: session.user.email,
				isAdmin: session.user.isAdmin,
			};
			context.set("viewer", viewer);
			context.set("optionalViewer", viewer);
			context.set(
				"isStillAllowed",
				async () => (await readActiveSession(auth, database, headers))?.user.id === viewer.id,
			);
			return next();
		});
	return {
		allow,
		allowSessionOnly: allow(BROWSER_ACCESS.account),
		allowAdminOnly: allow(BROWSER_ACCESS.admin),
	};
}
