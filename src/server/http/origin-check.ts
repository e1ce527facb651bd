import type { MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import { AppError } from "../errors/app-error";
import { hasBearerToken } from "./bearer-token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request sent from another site (CSRF), whatever the browser does with
 * cookies. Hono's `csrf` guards the bodies a plain HTML form can send (form encodings, text/plain,
 * no type at all): their Origin, or failing that Sec-Fetch-Site, must be ours. Any other body is
 * refused too when it names a foreign Origin. Clients that send no Origin (scripts, curl) can only
 * send JSON, which no form can forge. A request with `Authorization: Bearer` is not checked: it
 * is answered by its token alone, never by a cookie, and no other site can make a browser add
 * that header (app.ts refuses tokens on the account's routes, which read the cookie).
 */
export function refuseForeignOrigins(allowedOrigins: readonly string[]): MiddlewareHandler {
	const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
	const formCheck = csrf({ origin: (origin) => allowed.has(origin), secFetchSite: "same-origin" });
	return async (context, next) => {
		if (SAFE_METHODS.has(context.req.method)) return next();
		if (hasBearerToken(context.req.raw.headers)) return next();
		const origin = context.req.header("origin");
		if (origin !== undefined && !allowed.has(origin)) throw new AppError("FOREIGN_ORIGIN");
		try {
			await formCheck(context, async () => {});
		} catch (error) {
			if (error instanceof HTTPException) throw new AppError("FOREIGN_ORIGIN");
			throw error;
		}
		return next();
	};
}
