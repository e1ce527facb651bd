import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreatedApiTokenSchema } from "../../shared/account/api-tokens";
import {
	DeletePersonResponseSchema,
	type PeoplePage,
	PeoplePageSchema,
	PersonActionResponseSchema,
} from "../../shared/admin/people";
import { CANCELLED_BY_DISABLE_MESSAGE } from "../../shared/core/errors";
import { PollResponseSchema } from "../../shared/generations/generations";
import { AuditLogPageSchema } from "../../shared/history/history-responses";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createLocalProvider } from "../providers/local/local-provider";
import type { ImageProvider, ProviderJob, ProviderJobState } from "../providers/types";
import { PLAIN_CAPABILITIES } from "../providers/types";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { requestGeneration, waitForFinish, waitUntilStarted } from "../testing/generation-kit";
import { seedGeneration } from "../testing/history-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { TEST_ADMIN_EMAIL } from "../testing/test-settings";

type Person = Awaited<ReturnType<typeof createTestUser>>;

/** Jobs that never finish, remembering which were cancelled: generations stay unfinished. */
function createNeverDoneProvider() {
	const cancelled: string[] = [];
	let jobs = 0;
	const provider: ImageProvider = {
		name: "never-done",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			jobs += 1;
			return { jobId: `never-done-${jobs}` };
		},
		async check(): Promise<ProviderJobState> {
			return { status: "running" };
		},
		async cancel(job: ProviderJob) {
			cancelled.push(job.jobId);
		},
	};
	return { provider, cancelled };
}

async function listPeople(admin: Person, query: string): Promise<PeoplePage> {
	const response = await admin.client.request(`/api/admin/people?${query}`);
	expect(response.status).toBe(200);
	return PeoplePageSchema.parse(await response.json());
}

async function findListed(admin: Person, email: string) {
	const page = await listPeople(admin, `search=${encodeURIComponent(email)}`);
	const person = page.items.find((item) => item.email === email);
	if (!person) throw new Error(`${email} is not listed`);
	return person;
}

async function signIn(person: Person, server: TestServer): Promise<Response> {
	return new TestClient(server).request("/api/auth/sign-in/email", {
		method: "POST",
		json: { email: person.email, password: person.password },
	});
}

async function createAllScopesToken(person: Person): Promise<string> {
	const response = await person.client.request("/api/account/tokens", {
		method: "POST",
		json: { name: "every scope", scopes: ["generate", "read", "delete"], expiresInDays: 30 },
	});
	expect(response.status).toBe(201);
	return CreatedApiTokenSchema.parse(await response.json()).token;
}

async function createReadToken(person: Person): Promise<string> {
	const response = await person.client.request("/api/account/tokens", {
		method: "POST",
		json: { name: "script", scopes: ["read"], expiresInDays: 30 },
	});
	expect(response.status).toBe(201);
	return CreatedApiTokenSchema.parse(await response.json()).token;
}

/** A script's request: the token only, no cookie. */
async function callWithToken(server: TestServer, token: string, path: string): Promise<Response> {
	return server.app.request(path, { headers: { authorization: `Bearer ${token}` } });
}

describe.each(availableDatabaseKinds())("the administrator's people on %s", (kind) => {
	let server: TestServer;
	let admin: Person;
	let cancelled: string[];
	/** A tag in every e-mail of this file's people, so searches see only them. */
	const tag = `ppl${Date.now()}`;
	let counter = 0;

	async function createPerson(): Promise<Person> {
		counter += 1;
		return createTestUser(server, {
			email: `${tag}-${String(counter).padStart(2, "0")}@example.com`,
		});
	}

	beforeAll(async () => {
		const neverDone = createNeverDoneProvider();
		cancelled = neverDone.cancelled;
		server = await createTestServer(kind, {
			provider: neverDone.provider,
			limits: { maxActivePerUser: 2, dailyLimitPerUser: 0 },
		});
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server.close();
	});

	describe("the listing", () => {
		it("shows each person's figures: generations, this month's, images, bytes, spend, last active and status", async () => {
			const person = await createPerson();
			const lastMonth = new Date();
			lastMonth.setUTCDate(1);
			lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
			await seedGeneration(server, { userId: person.userId, prompt: "old", createdAt: lastMonth });
			await seedGeneration(server, { userId: person.userId, prompt: "new", imageCount: 2 });
			await seedGeneration(server, { userId: person.userId, prompt: "broke", status: "failed" });
			// What a run records: the price when it was made and the bytes stored.
			await server.database.db
				.updateTable("generations")
				.set({ price_per_image: 0.04, stored_bytes: 1000 })
				.where("user_id", "=", person.userId)
				.where("status", "=", "completed")
				.execute();

			const listed = await findListed(admin, person.email);

			expect(listed).toMatchObject({
				email: person.email,
				generations: 3,
				generationsThisMonth: 2,
				images: 6,
				imageBytes: 2000,
				status: "active",
				isAdmin: false,
				quota: { maxActive: null, daily: null },
			});
			expect(listed.spend).toBeCloseTo(0.24, 6);
			expect(listed.lastActiveAt).not.toBeNull();
			expect(Date.parse(listed.signedUpAt)).not.toBeNaN();
		});

		it("keeps spend and generations when generations are deleted, and stops counting their images", async () => {
			const person = await createPerson();
			const seeded = await seedGeneration(server, { userId: person.userId, prompt: "kept" });
			await server.database.db
				.updateTable("generations")
				.set({ price_per_image: 0.5, stored_bytes: 400 })
				.where("id", "=", seeded.id)
				.execute();
			const response = await person.client.request(`/api/generations/${seeded.id}`, {
				method: "DELETE",
			});
			expect(response.status).toBe(200);

			expect(await findListed(admin, person.email)).toMatchObject({
				generations: 1,
				images: 0,
				imageBytes: 0,
				spend: 2,
			});
		});

		it("searches by any part of the e-mail, any case, with % and _ taken literally", async () => {
			const person = await createPerson();
			const middle = person.email.slice(tag.length + 1, tag.length + 3);
			const page = await listPeople(
				admin,
				`search=${encodeURIComponent(`${tag.toUpperCase()}-${middle}`)}`,
			);
			expect(page.items.map((item) => item.email)).toEqual([person.email]);
			expect(page.total).toBe(1);
			expect((await listPeople(admin, `search=${tag}%25`)).total).toBe(0);
			expect((await listPeople(admin, `search=${tag}_`)).total).toBe(0);
		});

		it("sorts by every column, both ways, and pages on the server", async () => {
			const busy = await createPerson();
			const idle = await createPerson();
			await seedGeneration(server, { userId: busy.userId, prompt: "one" });
			await seedGeneration(server, { userId: busy.userId, prompt: "two" });

			const byGenerations = await listPeople(admin, `search=${tag}&sort=generations&order=desc`);
			const counts = byGenerations.items.map((item) => item.generations);
			expect(counts).toEqual([...counts].sort((a, b) => b - a));
			const byEmail = await listPeople(admin, `search=${tag}&sort=email&order=asc`);
			const emails = byEmail.items.map((item) => item.email);
			expect(emails).toEqual([...emails].sort());
			const byEmailDescending = await listPeople(admin, `search=${tag}&sort=email&order=desc`);
			expect(byEmailDescending.items.map((item) => item.email)).toEqual([...emails].reverse());
			for (const sort of [
				"signedUp",
				"lastActive",
				"generationsThisMonth",
				"images",
				"bytes",
				"spend",
				"status",
			]) {
				for (const order of ["asc", "desc"]) {
					const page = await listPeople(admin, `search=${tag}&sort=${sort}&order=${order}`);
					expect(page.items.map((item) => item.email).sort()).toEqual([...emails].sort());
				}
			}
			const bySignUp = await listPeople(admin, `search=${tag}&sort=signedUp&order=asc`);
			const signUps = bySignUp.items.map((item) => item.signedUpAt);
			expect(signUps).toEqual([...signUps].sort());
			expect(bySignUp.items.findIndex((item) => item.email === busy.email)).toBeLessThan(
				bySignUp.items.findIndex((item) => item.email === idle.email),
			);

			const first = await listPeople(admin, `search=${tag}&sort=email&limit=2&page=1`);
			const second = await listPeople(admin, `search=${tag}&sort=email&limit=2&page=2`);
			expect(first.items.map((item) => item.email)).toEqual(emails.slice(0, 2));
			expect(second.items.map((item) => item.email)).toEqual(emails.slice(2, 4));
			expect(first.total).toBe(emails.length);
			expect(first.pageSize).toBe(2);
			expect(first.defaultQuota).toEqual({ maxActive: 2, daily: 0 });
		});

		it("refuses a sort, order or page it does not know", async () => {
			for (const query of ["sort=password", "order=up", "page=0", "limit=1000"]) {
				await expectErrorEnvelope(
					await admin.client.request(`/api/admin/people?${query}`),
					400,
					"VALIDATION_ERROR",
				);
			}
		});
	});

	describe("disabling and enabling", () => {
		it("ends the person's sessions, cancels their unfinished generations, refuses sign-in and records it", async () => {
			const person = await createPerson();
			const running = await requestGeneration(person.client, "a running fox", "--ar 1:1");
			const started = await waitUntilStarted(person.client, running.id);
			const queued = await requestGeneration(person.client, "a queued fox", "--ar 1:1");
			const token = await createReadToken(person);
			expect((await callWithToken(server, token, "/api/generations")).status).toBe(200);

			const response = await admin.client.request(`/api/admin/people/${person.userId}/disable`, {
				method: "POST",
			});
			expect(response.status).toBe(200);
			const { person: disabled } = PersonActionResponseSchema.parse(await response.json());
			expect(disabled.status).toBe("disabled");

			// The session they had is refused at once.
			await expectErrorEnvelope(await person.client.request("/api/generations"), 401, "AUTH_ERROR");
			// So is their API token, and it stays ended: it was revoked, not only refused.
			await expectErrorEnvelope(
				await callWithToken(server, token, "/api/generations"),
				401,
				"AUTH_ERROR",
			);
			// Signing in again is refused, saying why.
			const signInAnswer = await signIn(person, server);
			expect(signInAnswer.status).toBe(403);
			expect(await signInAnswer.json()).toMatchObject({ code: "ACCOUNT_DISABLED" });
			// Both generations ended, and the started one's job was cancelled at the provider.
			for (const id of [running.id, queued.id]) {
				const poll = PollResponseSchema.parse(
					await (await admin.client.request(`/api/generations/${id}/status?wait=0`)).json(),
				);
				expect(poll).toMatchObject({ status: "failed", message: CANCELLED_BY_DISABLE_MESSAGE });
			}
			expect(cancelled).toContain(started.api_id);

			const log = AuditLogPageSchema.parse(
				await (await admin.client.request("/api/admin/audit-log?limit=5")).json(),
			);
			expect(log.items[0]).toMatchObject({
				action: "disable",
				actor_email: TEST_ADMIN_EMAIL,
				owner_email: person.email,
				generation_id: null,
				details: "2 unfinished generations cancelled",
			});

			const enabled = await admin.client.request(`/api/admin/people/${person.userId}/enable`, {
				method: "POST",
			});
			expect(PersonActionResponseSchema.parse(await enabled.json()).person.status).toBe("active");
			expect((await signIn(person, server)).status).toBe(200);
			expect((await callWithToken(server, token, "/api/generations")).status).toBe(401);
			const afterEnable = AuditLogPageSchema.parse(
				await (await admin.client.request("/api/admin/audit-log?limit=1")).json(),
			);
			expect(afterEnable.items[0]).toMatchObject({ action: "enable", owner_email: person.email });
		});

		it("sorts disabled people apart from active ones", async () => {
			const person = await createPerson();
			await admin.client.request(`/api/admin/people/${person.userId}/disable`, { method: "POST" });
			const page = await listPeople(admin, `search=${tag}&sort=status&order=desc&limit=100`);
			const statuses = page.items.map((item) => item.status);
			expect(statuses[0]).toBe("disabled");
			expect(statuses).toEqual([...statuses].sort((a, b) => b.localeCompare(a)));
		});

		it("refuses to disable or delete the administrator's own account", async () => {
			await expectErrorEnvelope(
				await admin.client.request(`/api/admin/people/${admin.userId}/disable`, { method: "POST" }),
				403,
				"ADMIN_ACCOUNT_PROTECTED",
			);
			await expectErrorEnvelope(
				await admin.client.request(`/api/admin/people/${admin.userId}`, { method: "DELETE" }),
				403,
				"ADMIN_ACCOUNT_PROTECTED",
			);
			expect((await findListed(admin, TEST_ADMIN_EMAIL)).isAdmin).toBe(true);
		});

		it("answers 404 for someone who does not exist", async () => {
			for (const id of ["no-such-person", "not/an/id"]) {
				const response = await admin.client.request(`/api/admin/people/${id}/disable`, {
					method: "POST",
				});
				expect(response.status).toBe(404);
			}
		});
	});

	describe("quota overrides", () => {
		it("replace the defaults for that person only, and clearing them restores the defaults", async () => {
			const person = await createPerson();
			const set = await admin.client.request(`/api/admin/people/${person.userId}/quota`, {
				method: "PUT",
				json: { maxActive: 1, daily: null },
			});
			expect(PersonActionResponseSchema.parse(await set.json()).person.quota).toEqual({
				maxActive: 1,
				daily: null,
			});
			await requestGeneration(person.client, "first", "--ar 1:1");
			await expectErrorEnvelope(
				await person.client.request("/api/generations", {
					method: "POST",
					json: { prompt: "second", aspectRatio: "--ar 1:1" },
				}),
				429,
				"QUOTA_EXCEEDED",
			);

			await admin.client.request(`/api/admin/people/${person.userId}/quota`, {
				method: "PUT",
				json: { maxActive: null, daily: null },
			});
			await requestGeneration(person.client, "second", "--ar 1:1");
			// The default (2) applies again.
			await expectErrorEnvelope(
				await person.client.request("/api/generations", {
					method: "POST",
					json: { prompt: "third", aspectRatio: "--ar 1:1" },
				}),
				429,
				"QUOTA_EXCEEDED",
			);
			const log = AuditLogPageSchema.parse(
				await (await admin.client.request("/api/admin/audit-log?limit=2")).json(),
			);
			expect(log.items.map((entry) => entry.details)).toEqual([
				"Active generations: default; daily generations: default",
				"Active generations: 1; daily generations: default",
			]);
		});

		it("a daily override limits the day's generations", async () => {
			const person = await createPerson();
			await admin.client.request(`/api/admin/people/${person.userId}/quota`, {
				method: "PUT",
				json: { maxActive: 10, daily: 1 },
			});
			await requestGeneration(person.client, "today", "--ar 1:1");
			const message = await expectErrorEnvelope(
				await person.client.request("/api/generations", {
					method: "POST",
					json: { prompt: "again", aspectRatio: "--ar 1:1" },
				}),
				429,
				"QUOTA_EXCEEDED",
			);
			expect(message).toContain("today's limit of 1");
		});

		it("refuses quotas out of range", async () => {
			const person = await createPerson();
			for (const json of [{ maxActive: 0, daily: null }, { maxActive: 1, daily: -1 }, {}]) {
				await expectErrorEnvelope(
					await admin.client.request(`/api/admin/people/${person.userId}/quota`, {
						method: "PUT",
						json,
					}),
					400,
					"VALIDATION_ERROR",
				);
			}
		});
	});

	describe("deleting an account", () => {
		it("removes the person, their generations and images, and records it", async () => {
			const person = await createPerson();
			const seeded = await seedGeneration(server, { userId: person.userId, prompt: "gone" });
			const key = seeded.images[0]?.key ?? "";
			expect(await server.storage.get(key)).toBeDefined();

			const response = await admin.client.request(`/api/admin/people/${person.userId}`, {
				method: "DELETE",
			});
			expect(DeletePersonResponseSchema.parse(await response.json())).toEqual({ success: true });

			expect((await listPeople(admin, `search=${encodeURIComponent(person.email)}`)).total).toBe(0);
			expect(await server.storage.get(key)).toBeUndefined();
			const left = await server.database.db
				.selectFrom("generations")
				.select("id")
				.where("user_id", "=", person.userId)
				.execute();
			expect(left).toEqual([]);
			await expectErrorEnvelope(await person.client.request("/api/generations"), 401, "AUTH_ERROR");
			expect((await signIn(person, server)).status).toBe(401);
			const log = AuditLogPageSchema.parse(
				await (await admin.client.request("/api/admin/audit-log?limit=1")).json(),
			);
			expect(log.items[0]).toMatchObject({
				action: "delete-account",
				owner_email: person.email,
				details: "1 generation made",
			});
		});
	});

	describe("who may", () => {
		/** A live link of `person`'s to a finished generation of theirs: the share routes' target. */
		async function shareOf(person: Person): Promise<string> {
			const seeded = await seedGeneration(server, {
				userId: person.userId,
				prompt: "a shared lighthouse",
				status: "completed",
				imageCount: 1,
			});
			const response = await person.client.request("/api/shares", {
				method: "POST",
				json: {
					target: { generationId: seeded.id },
					expires: "1d",
					originals: false,
					showPrompt: false,
				},
			});
			expect(response.status).toBe(201);
			return ((await response.json()) as { id: string }).id;
		}

		const routes: Array<{
			method: string;
			path: (id: string) => string;
			json?: unknown;
			/** The id the path takes, when it is not the person's own. */
			idOf?: (person: Person) => Promise<string>;
		}> = [
			{ method: "GET", path: () => "/api/admin/people" },
			{ method: "POST", path: (id) => `/api/admin/people/${id}/disable` },
			{ method: "POST", path: (id) => `/api/admin/people/${id}/enable` },
			{
				method: "PUT",
				path: (id) => `/api/admin/people/${id}/quota`,
				json: { maxActive: 5, daily: null },
			},
			{ method: "DELETE", path: (id) => `/api/admin/people/${id}` },
			{ method: "GET", path: () => "/api/admin/audit-log" },
			{ method: "GET", path: () => "/api/admin/usage" },
			{ method: "GET", path: () => "/api/admin/shares" },
			{ method: "GET", path: () => "/api/admin/reports" },
			{ method: "POST", path: (id) => `/api/admin/shares/${id}/hide`, idOf: shareOf },
			{ method: "DELETE", path: (id) => `/api/admin/shares/${id}`, idOf: shareOf },
		];

		it("covers every administrator's route the app serves", () => {
			const served = new Set(
				server.app.routes
					.filter((route) => route.path.startsWith("/api/admin/") && route.method !== "ALL")
					.map((route) => `${route.method} ${route.path}`),
			);
			const listed = new Set(routes.map((route) => `${route.method} ${route.path(":id")}`));
			expect([...served].sort()).toEqual([...listed].sort());
		});

		it.each(routes.map((route) => [`${route.method} ${route.path(":id")}`, route] as const))(
			"%s: signed out 401, anyone but the administrator 404, the administrator 200",
			async (_name, route) => {
				const target = await createPerson();
				const other = await createPerson();
				const id = route.idOf ? await route.idOf(target) : target.userId;
				const request = (client: TestClient) =>
					client.request(route.path(id), {
						method: route.method,
						...(route.json ? { json: route.json } : {}),
					});

				await expectErrorEnvelope(await request(new TestClient(server)), 401, "AUTH_ERROR");
				await expectErrorEnvelope(await request(other.client), 404, "NOT_FOUND");
				await expectErrorEnvelope(await request(target.client), 404, "NOT_FOUND");
				// Not even the administrator's own API token: these are for a signed-in browser.
				const token = await createAllScopesToken(admin);
				const withToken = await server.app.request(route.path(id), {
					method: route.method,
					headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
					...(route.json ? { body: JSON.stringify(route.json) } : {}),
				});
				await expectErrorEnvelope(withToken, 403, "TOKEN_NOT_ALLOWED");
				expect((await request(admin.client)).status).toBe(200);
			},
		);
	});
});

describe.each(availableDatabaseKinds())("what a real run records for the listing on %s", (kind) => {
	let server: TestServer;
	let admin: Person;

	beforeAll(async () => {
		const provider = createLocalProvider({ delayMs: 0 });
		const priced = modelFromProvider(provider, {
			id: "priced",
			label: "Priced",
			pricePerImage: 0.05,
		});
		server = await createTestServer(kind, { models: createModelCatalogue([priced], "priced") });
		admin = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server.close();
	});

	it("counts the images a run stored, their bytes, and the model's price when they were made", async () => {
		const person = await createTestUser(server);
		const created = await requestGeneration(person.client, "a priced lighthouse", "--ar 1:1", {
			count: 2,
		});
		expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
		const row = await server.database.db
			.selectFrom("generations")
			.select(["images", "stored_bytes", "price_per_image"])
			.where("id", "=", created.id)
			.executeTakeFirstOrThrow();
		const storedKeys = row.images.flatMap((image) =>
			[image.key, image.displayKey, image.thumbnailKey].filter((key) => key !== undefined),
		);
		let bytesInStorage = 0;
		for (const key of storedKeys)
			bytesInStorage += (await server.storage.get(key))?.data.length ?? 0;

		const listed = await findListed(admin, person.email);

		expect(Number(row.price_per_image)).toBe(0.05);
		expect(Number(row.stored_bytes)).toBe(bytesInStorage);
		expect(listed).toMatchObject({ generations: 1, images: 2, imageBytes: bytesInStorage });
		expect(listed.spend).toBeCloseTo(0.1, 6);
	});
});
