import { deleteAccountOf } from "../accounts/delete-account";
import { insertPersonEntry } from "../audit/audit-log-repository";
import type { Viewer } from "../person/viewer";
import { findTargetPerson, type PeopleDeps } from "./people-service";

/**
 * Deletes a person's account and everything in it, through the one account deletion
 * (accounts/delete-account.ts), and records it in the audit log once it is done.
 */
export async function deletePerson(
	deps: PeopleDeps,
	viewer: Viewer,
	personId: string,
): Promise<void> {
	const person = await findTargetPerson(deps, viewer, personId, "deleted");
	await deleteAccountOf(deps, { id: person.id, email: person.email });
	await insertPersonEntry(deps.database.db, viewer, {
		action: "delete-account",
		ownerId: person.id,
		ownerEmail: person.email,
		...(Number(person.generations) > 0
			? { details: `${person.generations} generation${person.generations === "1" ? "" : "s"} made` }
			: {}),
	});
}
