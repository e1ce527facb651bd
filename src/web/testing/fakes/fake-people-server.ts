import { HttpResponse, http } from "msw";
import { z } from "zod/mini";
import {
	PEOPLE_SORT_KEYS,
	type PeoplePage,
	type PeopleSortKey,
	type Person,
	type PersonQuota,
	SetQuotaRequestSchema,
} from "../../../shared/admin/people";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import { mswServer } from "../msw-server";

let nextPersonNumber = 1;

/** A person as the People listing shows them; pass only what the test is about. */
export function createTestPerson(overrides: Partial<Person> = {}): Person {
	const number = nextPersonNumber++;
	return {
		id: `person-${number}`,
		email: `person${number}@example.com`,
		signedUpAt: "2025-01-05T10:00:00.000Z",
		lastActiveAt: "2025-01-06T10:00:00.000Z",
		generations: 0,
		generationsThisMonth: 0,
		images: 0,
		imageBytes: 0,
		spend: 0,
		status: "active",
		isAdmin: false,
		quota: { maxActive: null, daily: null },
		...overrides,
	};
}

const SORT_VALUES: Record<PeopleSortKey, (person: Person) => string | number> = {
	email: (person) => person.email,
	signedUp: (person) => person.signedUpAt,
	lastActive: (person) => person.lastActiveAt ?? "",
	generations: (person) => person.generations,
	generationsThisMonth: (person) => person.generationsThisMonth,
	images: (person) => person.images,
	bytes: (person) => person.imageBytes,
	spend: (person) => person.spend,
	status: (person) => (person.status === "disabled" ? 1 : 0),
};

const PAGE_SIZE = 50;
const DEFAULT_QUOTA = { maxActive: 3, daily: 0 };

/**
 * Answers `/api/admin/people` the way the server answers the administrator: searched, sorted and
 * paged, and the actions on one person (the administrator's own account refused as the server
 * refuses it). `failure` makes the listing answer with that error instead.
 */
export function startFakePeopleServer(options: { people?: Person[]; failure?: ErrorCode } = {}) {
	const state = {
		people: [...(options.people ?? [])],
		failure: options.failure,
		requests: [] as URLSearchParams[],
		actions: [] as string[],
	};
	const find = (id: string | readonly string[] | undefined) =>
		state.people.find((person) => person.id === id);
	const errorAnswer = (code: ErrorCode, message?: string) =>
		HttpResponse.json(
			{ success: false, error: errorBody(code, message) },
			{ status: ERRORS[code].status },
		);
	const update = (id: string, change: Partial<Person>) => {
		state.people = state.people.map((person) =>
			person.id === id ? { ...person, ...change } : person,
		);
		return find(id);
	};

	mswServer.use(
		http.get("*/api/admin/people", ({ request }) => {
			const search = new URL(request.url).searchParams;
			state.requests.push(search);
			if (state.failure) return errorAnswer(state.failure);
			const text = search.get("search")?.toLowerCase() ?? "";
			const sort = PEOPLE_SORT_KEYS.find((key) => key === search.get("sort")) ?? "email";
			const direction = search.get("order") === "desc" ? -1 : 1;
			const page = Number(search.get("page") ?? 1);
			const value = SORT_VALUES[sort];
			const matching = state.people
				.filter((person) => person.email.toLowerCase().includes(text))
				.sort((left, right) => {
					const a = value(left);
					const b = value(right);
					return (a < b ? -1 : a > b ? 1 : left.id.localeCompare(right.id)) * direction;
				});
			const answer: PeoplePage = {
				items: matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
				total: matching.length,
				page,
				pageSize: PAGE_SIZE,
				defaultQuota: DEFAULT_QUOTA,
			};
			return HttpResponse.json(answer);
		}),
		http.post("*/api/admin/people/:id/:action", ({ params }) => {
			const person = find(params.id);
			if (!person) return errorAnswer("NOT_FOUND");
			state.actions.push(`${params.action} ${person.email}`);
			if (person.isAdmin) {
				return errorAnswer(
					"ADMIN_ACCOUNT_PROTECTED",
					"The administrator's account (ADMIN_EMAIL) cannot be disabled.",
				);
			}
			const status = params.action === "disable" ? "disabled" : "active";
			return HttpResponse.json({ success: true, person: update(person.id, { status }) });
		}),
		http.put("*/api/admin/people/:id/quota", async ({ params, request }) => {
			const person = find(params.id);
			if (!person) return errorAnswer("NOT_FOUND");
			const quota: PersonQuota = z.parse(SetQuotaRequestSchema, await request.json());
			state.actions.push(`quota ${person.email} ${JSON.stringify(quota)}`);
			return HttpResponse.json({ success: true, person: update(person.id, { quota }) });
		}),
		http.delete("*/api/admin/people/:id", ({ params }) => {
			const person = find(params.id);
			if (!person) return errorAnswer("NOT_FOUND");
			state.actions.push(`delete ${person.email}`);
			state.people = state.people.filter((entry) => entry.id !== person.id);
			return HttpResponse.json({ success: true });
		}),
	);
	return {
		readRequests: () => state.requests,
		readActions: () => state.actions,
		setFailure: (code: ErrorCode | undefined) => {
			state.failure = code;
		},
	};
}
