import type * as BetterAuthClientModule from "./better-auth-client";

type AuthClient = typeof BetterAuthClientModule.authClient;
type AuthActions = typeof BetterAuthClientModule.authActions;

let authClientModulePromise: Promise<typeof BetterAuthClientModule> | undefined;

/**
 * The Better Auth client's module, loaded the first time an auth action needs it. It is about
 * twelve kilobytes that the first page does without: the session lookup is a plain request.
 */
function loadAuthClientModule(): Promise<typeof BetterAuthClientModule> {
	authClientModulePromise ??= import("./better-auth-client").catch((error: unknown) => {
		// Let the next action try again, for example after the connection comes back.
		authClientModulePromise = undefined;
		throw error;
	});
	return authClientModulePromise;
}

/** The Better Auth client itself, for calls that convert its errors their own way. */
export async function loadAuthClient(): Promise<AuthClient> {
	return (await loadAuthClientModule()).authClient;
}

/** Signing in, up and out through the client; each action throws an AuthActionError when refused. */
export async function loadAuthActions(): Promise<AuthActions> {
	return (await loadAuthClientModule()).authActions;
}
