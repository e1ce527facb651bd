import type { Person } from "../../shared/admin/people";
import { CANCELLED_BY_DISABLE_MESSAGE } from "../../shared/core/errors";
import { insertPersonEntry } from "../audit/audit-log-repository";
import { revokeApiTokensOf } from "../auth/api-tokens";
import { cancelProviderJob } from "../generations/request/delete-generations";
import { cancelUnfinishedGenerations } from "../generations/run/generation-lifecycle";
import { deleteSessionsOf, updatePersonControls } from "../person/people-repository";
import type { Viewer } from "../person/viewer";
import { findTargetPerson, type PeopleDeps, readPerson } from "./people-service";

/**
 * Disables a person: in one transaction they are marked disabled (sign-in refused, a session of
 * theirs refused: the gate, auth/request-viewer.ts), every session and API token of theirs ends, their queued and running
 * generations are cancelled, and the audit log records it. Then the providers' jobs of those that
 * had started are cancelled where the provider can. Every server process sees it at once: it is
 * all in the database.
 */
export async function disablePerson(
	deps: PeopleDeps,
	viewer: Viewer,
	personId: string,
): Promise<Person> {
	const person = await findTargetPerson(deps, viewer, personId, "disabled");
	const cancelled = await deps.database.db.transaction().execute(async (transaction) => {
		await updatePersonControls(transaction, person.id, { disabledAt: new Date() });
		await deleteSessionsOf(transaction, person.id);
		await revokeApiTokensOf(transaction, person.id);
		const rows = await cancelUnfinishedGenerations(
			transaction,
			person.id,
			CANCELLED_BY_DISABLE_MESSAGE,
		);
		await insertPersonEntry(transaction, viewer, {
			action: "disable",
			ownerId: person.id,
			ownerEmail: person.email,
			...(rows.length > 0
				? {
						details: `${rows.length} unfinished generation${rows.length === 1 ? "" : "s"} cancelled`,
					}
				: {}),
		});
		return rows;
	});
	for (const row of cancelled) {
		await cancelProviderJob(deps, row).catch((error: unknown) => {
			deps.logger.warn("a disabled person's provider job was not cancelled", {
				generationId: row.id,
				error,
			});
		});
	}
	return readPerson(deps, viewer, person.id);
}

/** Enables a disabled person again: they may sign in; nothing cancelled comes back. */
export async function enablePerson(
	deps: PeopleDeps,
	viewer: Viewer,
	personId: string,
): Promise<Person> {
	const person = await findTargetPerson(deps, viewer, personId);
	await deps.database.db.transaction().execute(async (transaction) => {
		await updatePersonControls(transaction, person.id, { disabledAt: null });
		await insertPersonEntry(transaction, viewer, {
			action: "enable",
			ownerId: person.id,
			ownerEmail: person.email,
		});
	});
	return readPerson(deps, viewer, person.id);
}
