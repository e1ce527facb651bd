import { createAuthClient } from "better-auth/react";
import { emailLocalPart } from "../../../shared/account/session";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { AuthActionError, toAuthActionError } from "./auth-errors";

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

type Credentials = { email: string; password: string };

/**
 * The AuthProvider's actions through the client; each throws an AuthActionError when the server
 * refuses. They load with the client (through `loadAuthActions`) rather than with the first page:
 * errors only come from the client's answers, so the page does without their conversion.
 */
export const authActions = {
	async signIn({ email, password }: Credentials): Promise<void> {
		const { error } = await authClient.signIn.email({ email, password });
		if (error) throw toAuthActionError(error);
	},

	async signUp({ email, password }: Credentials): Promise<void> {
		const { error } = await authClient.signUp.email({
			email,
			password,
			name: emailLocalPart(email),
		});
		if (error) throw toAuthActionError(error);
	},

	/** Starts the Google flow; on success the client sends the browser to Google. */
	async signInWithGoogle(): Promise<void> {
		const { data, error } = await authClient.signIn.social({
			provider: "google",
			callbackURL: APP_PATHS.generator,
			errorCallbackURL: APP_PATHS.login,
		});
		if (error) throw toAuthActionError(error);
		// Better Auth's client follows `url` itself; an answer without one cannot go anywhere.
		if (!data || !("url" in data) || !data.url) throw new AuthActionError(undefined);
	},

	async signOut(): Promise<void> {
		const { error } = await authClient.signOut();
		if (error) throw toAuthActionError(error);
	},
};
