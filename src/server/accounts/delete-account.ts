import type { Auth } from "../auth/auth";
import { deleteAuthUser } from "../auth/auth-user-tables";
import type { GenerationDeps } from "../generations/generation-deps";
import { deleteGenerations } from "../generations/request/delete-generations";
import { deleteSessionsOf } from "../person/people-repository";
import { removeUploadsOf } from "../uploads/remove-uploads";

type AccountDeletionDeps = Pick<GenerationDeps, "database" | "storage" | "models" | "logger">;

/**
 * What deleting an account removes of Atelier's own: every generation with its stored images and
 * running jobs (through the one deletion), and every uploaded image. Better Auth then deletes the user, their sessions and
 * sign-in accounts: after a person's own request (auth.ts calls this first), or in
 * `deleteAccountOf` below.
 */
export async function removeAccountContents(
	deps: AccountDeletionDeps,
	user: { id: string; email: string },
): Promise<void> {
	await deleteGenerations(deps, { id: user.id, email: user.email, isAdmin: false }, "all");
	await removeUploadsOf({ db: deps.database.db, storage: deps.storage }, user.id);
}

/**
 * The administrator's deletion of someone else's account: their sessions end first (so nothing
 * new is made meanwhile), then everything in the account goes, then the user.
 */
export async function deleteAccountOf(
	deps: AccountDeletionDeps & { auth: Auth },
	user: { id: string; email: string },
): Promise<void> {
	await deleteSessionsOf(deps.database.db, user.id);
	await removeAccountContents(deps, user);
	await deleteAuthUser(deps.auth, user.id);
}
