import type { Person, PersonQuota } from "../../shared/admin/people";
import { insertPersonEntry } from "../audit/audit-log-repository";
import { updatePersonControls } from "../person/people-repository";
import type { Viewer } from "../person/viewer";
import { findTargetPerson, type PeopleDeps, readPerson } from "./people-service";

/** How the audit log tells a quota: each limit, or that it is the default. */
function describeQuota(quota: PersonQuota): string {
	const active = quota.maxActive === null ? "default" : String(quota.maxActive);
	const daily =
		quota.daily === null ? "default" : quota.daily === 0 ? "no limit" : String(quota.daily);
	return `Active generations: ${active}; daily generations: ${daily}`;
}

/**
 * Sets a person's own generation quotas, which replace the defaults (ACTIVE and DAILY limits) for
 * them; null restores the default. createGeneration reads them under the person's lock, so the
 * next request in any process obeys them.
 */
export async function setPersonQuota(
	deps: PeopleDeps,
	viewer: Viewer,
	personId: string,
	quota: PersonQuota,
): Promise<Person> {
	const person = await findTargetPerson(deps, viewer, personId);
	await deps.database.db.transaction().execute(async (transaction) => {
		await updatePersonControls(transaction, person.id, {
			maxActive: quota.maxActive,
			dailyLimit: quota.daily,
		});
		await insertPersonEntry(transaction, viewer, {
			action: "set-quota",
			ownerId: person.id,
			ownerEmail: person.email,
			details: describeQuota(quota),
		});
	});
	return readPerson(deps, viewer, person.id);
}
