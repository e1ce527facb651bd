import { getMigrations } from "better-auth/db/migration";
import { type Auth, forgetVerifications } from "./auth";

/**
 * Deletes a user as Better Auth does (sessions, accounts, the user), without their session: the
 * administrator's deletion of someone's account. The caller removes Atelier's own data first.
 */
export async function deleteAuthUser(auth: Auth, userId: string): Promise<void> {
	const context = await auth.$context;
	await context.internalAdapter.deleteUser(userId);
	await forgetVerifications(context.adapter, userId);
}

/** Creates or updates Better Auth's tables (the CLI for this needs Node 22, so we do it from code). */
export async function migrateAuthTables(auth: Auth): Promise<void> {
	const { runMigrations } = await getMigrations(auth.options);
	await runMigrations();
}
