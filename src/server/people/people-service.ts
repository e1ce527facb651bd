import type { Person, PersonQuota } from "../../shared/admin/people";
import { serverAdminAccountNotDisabled } from "../../shared/i18n/messages";
import type { Auth } from "../auth/auth";
import { AppError } from "../errors/app-error";
import type { GenerationDeps } from "../generations/generation-deps";
import type { PersonRow } from "../person/people-repository";
import { selectPerson } from "../person/people-repository";
import type { Viewer } from "../person/viewer";

/** What the administrator's people routes need: the generations' parts, and auth to delete users. */
export type PeopleDeps = Pick<
	GenerationDeps,
	"database" | "storage" | "models" | "logger" | "limits"
> & { auth: Auth };

/** A person as the API shows them. */
export function presentPerson(row: PersonRow, viewer: Viewer): Person {
	const quota: PersonQuota = { maxActive: row.max_active, daily: row.daily_limit };
	return {
		id: row.id,
		email: row.email,
		signedUpAt: new Date(row.signed_up_at).toISOString(),
		lastActiveAt: row.last_active_at ? new Date(row.last_active_at).toISOString() : null,
		generations: Number(row.generations),
		generationsThisMonth: Number(row.month_generations),
		images: Number(row.images),
		imageBytes: Number(row.image_bytes),
		spend: Number(row.spend),
		status: row.disabled_at ? "disabled" : "active",
		isAdmin: row.id === viewer.id,
		quota,
	};
}

/**
 * The person an action of the administrator's (routes behind the gate's allowAdminOnly) is about;
 * NOT_FOUND when there is none.
 * `protect` names the action the administrator's own account refuses.
 */
export async function findTargetPerson(
	deps: Pick<PeopleDeps, "database">,
	viewer: Viewer,
	personId: string,
	protect?: "disabled" | "deleted",
): Promise<PersonRow> {
	const person = await selectPerson(deps.database.db, personId, new Date());
	if (!person) throw new AppError("NOT_FOUND");
	if (protect && person.id === viewer.id) {
		// The catalogue's own message says "deleted".
		throw protect === "disabled"
			? new AppError("ADMIN_ACCOUNT_PROTECTED", serverAdminAccountNotDisabled)
			: new AppError("ADMIN_ACCOUNT_PROTECTED");
	}
	return person;
}

/** The person as the listing shows them now, after an action. */
export async function readPerson(
	deps: Pick<PeopleDeps, "database">,
	viewer: Viewer,
	personId: string,
): Promise<Person> {
	const row = await selectPerson(deps.database.db, personId, new Date());
	if (!row) throw new AppError("NOT_FOUND");
	return presentPerson(row, viewer);
}
