import type { Database } from "../db/database";
import { isPersonDisabled } from "../people/person-controls";
import type { Auth } from "./auth";

/**
 * The session a request carries, as our own routes read it: none when signed out, and none for a
 * person the administrator disabled. Disabling deletes their sessions as well; this check also
 * covers a session made while the administrator was disabling them, in any server process.
 */
export async function readActiveSession(auth: Auth, database: Database, headers: Headers) {
	const session = await auth.api.getSession({ headers });
	if (!session || (await isPersonDisabled(database.db, session.user.id))) return null;
	return session;
}
