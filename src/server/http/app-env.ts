import type { ApiTokenScope } from "../../shared/api-tokens";

/** What every request of the app carries, for Hono's typed `context.get`: set by the app, read by routes. */
export type AppEnv = {
	Variables: {
		requestId: string;
	};
};

/** Who asks: a signed-in person, or the owner of the API token the request presents. */
export type Viewer = { id: string; email: string; isAdmin: boolean };

/** What a route lets in: a browser session always, and an API token holding one of `scopes`. */
export type RouteAccess = {
	/** Any one of these is enough; an empty list lets no token in (session only). */
	scopes: readonly ApiTokenScope[];
	/** Answered when nobody is signed in and no token came; AUTH_ERROR unless the route says. */
	signedOutCode?: "SIGN_IN_REQUIRED";
	/** Needs a verified address when REQUIRE_EMAIL_VERIFICATION is on (starting a generation). */
	needsVerifiedEmail?: boolean;
	/** Open to anyone: a session or a valid token only tells the route who asks (optionalViewer). */
	isOpen?: boolean;
};

/** A route behind the viewer middleware (auth/request-viewer.ts). */
export type ViewerEnv = {
	Variables: AppEnv["Variables"] & {
		viewer: Viewer;
		/** Who asks, on a route open to anyone; undefined for nobody in particular. */
		optionalViewer: Viewer | undefined;
	};
};
