import { createAuthClient } from "better-auth/react";

/** The Better Auth client, talking to the server's /api/auth on this origin. Load it through `loadAuthClient`. */
export const authClient = createAuthClient({
	baseURL: window.location.origin,
	basePath: "/api/auth",
	fetchOptions: {
		// Look fetch up on every call rather than once at import, so interceptors installed later
		// (MSW in tests, instrumentation in production) still see the request.
		customFetchImpl: (input, init) => fetch(input, init),
	},
});
