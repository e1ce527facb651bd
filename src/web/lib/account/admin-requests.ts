// The administrator's calls to the API, each wrapped once. Loaded on demand, with the screens that
// use them (docs/decisions/005-first-load-budget.md).

import {
	DeletePersonResponseSchema,
	type PeoplePage,
	PeoplePageSchema,
	type PeopleSortKey,
	type Person,
	PersonActionResponseSchema,
	type PersonQuota,
	type SortOrder,
} from "../../../shared/admin/people";
import { type UsageReport, UsageReportSchema } from "../../../shared/admin/usage-responses";
import { type AuditLogPage, AuditLogPageSchema } from "../../../shared/history/history-responses";
import { requestApi } from "../api/api-client";

/** One cursor page of the audit log, newest first. */
export function fetchAuditLogPage(options: {
	limit: number;
	cursor?: string | null;
	signal?: AbortSignal;
}): Promise<AuditLogPage> {
	const params = new URLSearchParams({ limit: String(options.limit) });
	if (options.cursor) params.set("cursor", options.cursor);
	return requestApi(`/api/admin/audit-log?${params}`, AuditLogPageSchema, {
		signal: options.signal,
	});
}

/** One page of people, sorted and searched by the server. */
export function fetchPeoplePage(options: {
	search: string;
	sort: PeopleSortKey;
	order: SortOrder;
	page: number;
	signal?: AbortSignal;
}): Promise<PeoplePage> {
	const params = new URLSearchParams({
		sort: options.sort,
		order: options.order,
		page: String(options.page),
	});
	if (options.search.trim()) params.set("search", options.search.trim());
	return requestApi(`/api/admin/people?${params}`, PeoplePageSchema, { signal: options.signal });
}

function personPath(id: string): string {
	return `/api/admin/people/${encodeURIComponent(id)}`;
}

/** Disables a person: signed out everywhere, sign-in refused, unfinished generations cancelled. */
export async function disablePerson(id: string): Promise<Person> {
	const answer = await requestApi(`${personPath(id)}/disable`, PersonActionResponseSchema, {
		method: "POST",
	});
	return answer.person;
}

/** Lets a disabled person sign in again. */
export async function enablePerson(id: string): Promise<Person> {
	const answer = await requestApi(`${personPath(id)}/enable`, PersonActionResponseSchema, {
		method: "POST",
	});
	return answer.person;
}

/** Sets a person's own quotas (null: the default). */
export async function setPersonQuota(id: string, quota: PersonQuota): Promise<Person> {
	const answer = await requestApi(`${personPath(id)}/quota`, PersonActionResponseSchema, {
		method: "PUT",
		body: JSON.stringify(quota),
	});
	return answer.person;
}

/** Deletes a person's account and everything in it. */
export async function deletePerson(id: string): Promise<void> {
	await requestApi(personPath(id), DeletePersonResponseSchema, { method: "DELETE" });
}

/** The usage report of the last thirty days, its days counted in `timeZone`. */
export function fetchUsageReport(options: {
	timeZone: string;
	signal?: AbortSignal;
}): Promise<UsageReport> {
	const params = new URLSearchParams({ timeZone: options.timeZone });
	return requestApi(`/api/admin/usage?${params}`, UsageReportSchema, { signal: options.signal });
}
