import type { User } from "better-auth";
import { isAPIError } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";

/** What an after hook receives (Better Auth's endpoint context). */
type AfterHookContext = Parameters<typeof setSessionCookie>[0];

/**
 * Signing in the browser that reset its password, through Better Auth's own hooks: its reset
 * endpoint names the person only to `onPasswordReset`, and the after hook of the same request
 * makes the session. Every use of Better Auth beyond its documented options is here:
 * `onPasswordReset` and the after hook receive the same Request, and the hook context's
 * `internalAdapter` updates the user and creates the session. password-reset.test.ts fails if a
 * Better Auth upgrade changes either.
 */
export function createPasswordResetSignIn(options: {
	/** Ends what was made before the reset (auth/take-account-back.ts), before the new session. */
	takeAccountBack: (user: User) => Promise<void>;
}) {
	// Keyed by the request, so concurrent resets never mix and nothing outlives its request.
	const resetOwners = new WeakMap<Request, User>();
	return {
		/** For `emailAndPassword.onPasswordReset`: remembers who reset their password. */
		async onPasswordReset({ user }: { user: User }, request: Request | undefined): Promise<void> {
			if (request) resetOwners.set(request, user);
		},
		/**
		 * For `hooks.after`, with what the endpoint returned: after a successful reset, counts the
		 * address verified (the link reached this mailbox, which is what verification proves), takes
		 * the account back and signs this browser in; Better Auth has signed the person out
		 * everywhere else.
		 */
		async afterReset(hook: AfterHookContext, returned: unknown): Promise<void> {
			if (hook.path !== "/reset-password" || !hook.request) return;
			const user = resetOwners.get(hook.request);
			if (!user || isAPIError(returned)) return;
			resetOwners.delete(hook.request);
			const adapter = hook.context.internalAdapter;
			const verified = user.emailVerified
				? user
				: ((await adapter.updateUser(user.id, { emailVerified: true })) ?? user);
			await options.takeAccountBack(user);
			const session = await adapter.createSession(user.id);
			await setSessionCookie(hook, { session, user: verified });
		},
	};
}
