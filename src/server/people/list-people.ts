import type { PeoplePage, PeopleQuery } from "../../shared/admin/people";
import { countPeople, selectPeoplePage } from "../person/people-repository";
import type { Viewer } from "../person/viewer";
import { type PeopleDeps, presentPerson } from "./people-service";

/** The administrator's listing of everyone: a page, sorted and searched by the server. */
export async function listPeople(
	deps: Pick<PeopleDeps, "database" | "limits">,
	viewer: Viewer,
	query: PeopleQuery,
): Promise<PeoplePage> {
	const search = query.search?.trim() || undefined;
	const db = deps.database.db;
	const [rows, total] = await Promise.all([
		selectPeoplePage(db, {
			search,
			sort: query.sort,
			order: query.order,
			offset: (query.page - 1) * query.limit,
			limit: query.limit,
			now: new Date(),
		}),
		countPeople(db, search),
	]);
	return {
		items: rows.map((row) => presentPerson(row, viewer)),
		total,
		page: query.page,
		pageSize: query.limit,
		defaultQuota: {
			maxActive: deps.limits.maxActivePerUser,
			daily: deps.limits.dailyLimitPerUser,
		},
	};
}
