import { type createAuthMiddleware, isAPIError } from "better-auth/api";
import { isAdminEmail } from "../../shared/account/session";
import type { AccountTakeBack } from "./take-account-back";

/** What an after hook of Better Auth's endpoints receives. */
type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * After `/change-password`: one that signs the other devices out ends every token and webhook made
 * before it too (decision 023), keeping the session Better Auth just made for this browser.
 */
export async function takeBackAfterPasswordChange(
	context: AuthHookContext,
	returned: unknown,
	takeBack: (takeBack: Omit<AccountTakeBack, "adminEmail">) => Promise<void>,
): Promise<void> {
	if (context.path !== "/change-password" || isAPIError(returned)) return;
	const body: unknown = context.body;
	const isRevoking =
		typeof body === "object" &&
		body !== null &&
		"revokeOtherSessions" in body &&
		body.revokeOtherSessions === true;
	const user = context.context.session?.user;
	const kept = context.context.newSession?.session.token;
	if (!isRevoking || !user || !kept) return;
	await takeBack({
		userId: user.id,
		email: user.email,
		keepSessionToken: kept,
		isPasswordRemoved: false,
		isAddressProven: false,
	});
}

/** After `/sign-up/email` with the administrator's address: the claim link is mailed (decision 022). */
export async function claimAfterSignUp(
	context: AuthHookContext,
	returned: unknown,
	adminEmail: string | undefined,
	sendAdministratorClaim: (email: string) => Promise<void>,
): Promise<void> {
	if (context.path !== "/sign-up/email" || isAPIError(returned)) return;
	const user = context.context.newSession?.user;
	if (!user || !isAdminEmail(user.email, adminEmail)) return;
	await sendAdministratorClaim(user.email);
}
