import type { MiddlewareHandler } from "hono";
import type { ApiTokenScope } from "../../shared/account/api-tokens";
import type { Viewer } from "../person/viewer";

/** What every request of the app carries, for Hono's typed `context.get`: set by the app, read by routes. */
export type AppEnv = {
	Variables: {
		requestId: string;
	};
};

/**
 * Who may call a route, read by the one gate (auth/request-viewer.ts): a browser session always
 * (the administrator's alone when `isAdminOnly`), and an API token holding one of `scopes`.
 */
export type RouteAccess = {
	/** Any one of these is enough; an empty list lets no token in (browser only). */
	scopes: readonly ApiTokenScope[];
	/** Answered when nobody is signed in and no token came; AUTH_ERROR unless the route says. */
	signedOutCode?: "SIGN_IN_REQUIRED";
	/**
	 * Needs a verified address when REQUIRE_EMAIL_VERIFICATION is on: whatever makes images
	 * (generating, uploading) or acts for the person later (minting a token, saving a webhook).
	 */
	needsVerifiedEmail?: boolean;
	/** Open to anyone: a session or a valid token only tells the route who asks (optionalViewer). */
	isOpen?: boolean;
	/** The administrator's browser session only; anyone else is answered 404, learning nothing. */
	isAdminOnly?: boolean;
};

/** The gate's middleware for each kind of route (auth/request-viewer.ts builds it once). */
export type Gate = {
	/** A route of the operations table (http/api-operations.ts), by its entry's access. */
	allow: (access: RouteAccess) => MiddlewareHandler<ViewerEnv>;
	/** A signed-in browser, never a token: the account's own routes. */
	allowSessionOnly: MiddlewareHandler<ViewerEnv>;
	/** The administrator's browser session: the people, the audit log and the usage report. */
	allowAdminOnly: MiddlewareHandler<ViewerEnv>;
};

/** A route behind the gate (auth/request-viewer.ts). */
export type ViewerEnv = {
	Variables: AppEnv["Variables"] & {
		viewer: Viewer;
		/** Who asks, on a route open to anyone; undefined for nobody in particular. */
		optionalViewer: Viewer | undefined;
		/**
		 * Asks the gate again whether the session or token that let this request in still does
		 * (not revoked, not expired, its person not disabled): for a response that lasts, a stream.
		 */
		isStillAllowed: () => Promise<boolean>;
	};
};
