import type { Kysely } from "kysely";
import { isAdminEmail } from "../../shared/account/session";
import type { DatabaseSchema } from "../db/schema";
import { removeEndpointsMadeBefore } from "../webhooks/webhook-repository";
import { recordAdministratorClaim } from "./administrator";
import { revokeTokensMadeBefore } from "./api-tokens";

export type AccountTakeBack = {
	userId: string;
	email: string;
	/** The session of the person taking the account back, when they already have one. */
	keepSessionToken?: string;
	/**
	 * Whether the password goes too: a Google sign-in takes over an account whose password was
	 * chosen before anyone proved the address, and that password must no longer sign in.
	 */
	isPasswordRemoved: boolean;
	/**
	 * The address was just proven (a reset link from its mailbox, or Google), so the account at
	 * ADMIN_EMAIL becomes the administrator.
	 */
	isAddressProven: boolean;
	adminEmail: string | undefined;
};

/**
 * The one way an account is taken back (decision 023): a password reset, a password change that
 * signs the other devices out, a Google sign-in over an unverified password account, and the
 * administrator's claim all end, in one transaction, every session (but the one kept), API token
 * and webhook endpoint made before this moment, whoever made them.
 */
export async function takeAccountBack(
	db: Kysely<DatabaseSchema>,
	takeBack: AccountTakeBack,
): Promise<void> {
	const moment = new Date();
	const { userId, keepSessionToken } = takeBack;
	await db.transaction().execute(async (transaction) => {
		let sessions = transaction.deleteFrom("session").where("userId", "=", userId);
		if (keepSessionToken) sessions = sessions.where("token", "!=", keepSessionToken);
		await sessions.execute();
		if (takeBack.isPasswordRemoved) {
			await transaction
				.deleteFrom("account")
				.where("userId", "=", userId)
				.where("providerId", "=", "credential")
				.execute();
		}
		await revokeTokensMadeBefore(transaction, userId, moment);
		await removeEndpointsMadeBefore(transaction, userId, moment);
		if (takeBack.isAddressProven && isAdminEmail(takeBack.email, takeBack.adminEmail)) {
			await recordAdministratorClaim(transaction, { id: userId, email: takeBack.email }, moment);
		}
	});
}
