import { createAuthMiddleware } from "better-auth/api";
import { MIN_PASSWORD_LENGTH } from "../../shared/core/constants";

/** The longest password Better Auth accepts, and so the longest sign-up hashes ahead. */
export const MAX_PASSWORD_LENGTH = 128;

/**
 * Better Auth's before hook that hashes a sign-up's password ahead. Sign-up hashes the password
 * inside its database transaction, holding a pooled connection all along: a crowd signing up would
 * hold every connection and starve every other request. The hash is made here instead, before the
 * transaction (and after the rate limit), and handed to the endpoint for that password only.
 */
export function hashBeforeSignUp(
	hash: (password: string, signal?: AbortSignal) => Promise<string>,
) {
	return createAuthMiddleware(async (context) => {
		if (context.path !== "/sign-up/email") return;
		const body: unknown = context.body;
		const password =
			typeof body === "object" && body !== null && "password" in body ? body.password : undefined;
		if (
			typeof password !== "string" ||
			password.length < MIN_PASSWORD_LENGTH ||
			password.length > MAX_PASSWORD_LENGTH
		) {
			return;
		}
		// Not hashed for someone who has gone (the server aborts their request's signal).
		const ready = await hash(password, context.request?.signal);
		const passwordContext = context.context.password;
		return {
			context: {
				context: {
					password: {
						...passwordContext,
						hash: async (candidate: string) =>
							candidate === password ? ready : passwordContext.hash(candidate),
					},
				},
			},
		};
	});
}
