import type { authClient } from "./better-auth-client";

export type AuthClient = typeof authClient;

let authClientPromise: Promise<AuthClient> | undefined;

/**
 * The Better Auth client, loaded the first time an auth action needs it. It is about twelve
 * kilobytes that the first page does without: the session lookup is a plain request.
 */
export function loadAuthClient(): Promise<AuthClient> {
	authClientPromise ??= import("./better-auth-client").then(
		(module) => module.authClient,
		(error: unknown) => {
			// Let the next action try again, for example after the connection comes back.
			authClientPromise = undefined;
			throw error;
		},
	);
	return authClientPromise;
}
