import type { Kysely, Transaction } from "kysely";
import { isAdminEmail } from "../../shared/account/session";
import type { DatabaseSchema } from "../db/schema";

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * Where an account stands with the administrator's powers: "administrator" for the account at
 * ADMIN_EMAIL that proved the address, "unclaimed" for that account until it does (it has no
 * powers; the web app tells it how to claim them), "none" for everyone else.
 */
export type AdministratorStanding = "administrator" | "unclaimed" | "none";

/**
 * The one rule of who is the administrator (decision 022): the account at ADMIN_EMAIL, once the
 * address was proven by a reset link from its mailbox or by Google. Signing up with the address,
 * even verifying it by the ordinary link, gives no powers.
 */
export async function findAdministratorStanding(
	db: Db,
	user: { id: string; email: string },
	adminEmail: string | undefined,
): Promise<AdministratorStanding> {
	if (!isAdminEmail(user.email, adminEmail)) return "none";
	const claim = await db
		.selectFrom("administrator_claims")
		.select("user_id")
		.where("user_id", "=", user.id)
		.where("email", "=", normalizeEmail(user.email))
		.executeTakeFirst();
	return claim ? "administrator" : "unclaimed";
}

/** Whether the account holds the administrator's powers: findAdministratorStanding's answer. */
export async function isAdministrator(
	db: Db,
	user: { id: string; email: string },
	adminEmail: string | undefined,
): Promise<boolean> {
	return (await findAdministratorStanding(db, user, adminEmail)) === "administrator";
}

/** Records that this account proved the address; only taking the account back calls it. */
export async function recordAdministratorClaim(
	db: Db,
	user: { id: string; email: string },
	moment: Date,
): Promise<void> {
	const email = normalizeEmail(user.email);
	await db
		.insertInto("administrator_claims")
		.values({ user_id: user.id, email, claimed_at: moment })
		.onConflict((conflict) => conflict.column("user_id").doUpdateSet({ email, claimed_at: moment }))
		.execute();
}

function normalizeEmail(email: string): string {
	return email.trim().toLowerCase();
}
