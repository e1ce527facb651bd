import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLogPageSchema } from "../../shared/history/history-responses";
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

describe.each(availableDatabaseKinds())(
	"the audit log after an account is deleted, on %s",
	(kind) => {
		let server: TestServer;
		let admin: Person;

		beforeAll(async () => {
			server = await createTestServer(kind, { isWorkerEnabled: false });
			admin = await createTestAdministrator(server);
		});
		afterAll(async () => {
			await server?.close();
		});

		async function expectOk(response: Promise<Response>): Promise<void> {
			expect((await response).status).toBe(200);
		}

		/** The administrator deletes one of the person's generations, disables, enables and sets a quota. */
		async function actOn(person: Person): Promise<string> {
			const generation = await seedGeneration(server, {
				userId: person.userId,
				prompt: "moderated",
			});
			await expectOk(
				admin.client.request(`/api/generations/${generation.id}`, { method: "DELETE" }),
			);
			for (const action of ["disable", "enable"]) {
				await expectOk(
					admin.client.request(`/api/admin/people/${person.userId}/${action}`, { method: "POST" }),
				);
			}
			await expectOk(
				admin.client.request(`/api/admin/people/${person.userId}/quota`, {
					method: "PUT",
					json: { maxActive: 1, daily: 5 },
				}),
			);
			return generation.id;
		}

		async function entriesAbout(person: Person) {
			const log = AuditLogPageSchema.parse(
				await (await admin.client.request("/api/admin/audit-log?limit=100")).json(),
			);
			return log.items
				.filter((entry) => entry.owner_email === person.email)
				.map(({ action, actor_email, owner_email, generation_id, prompt }) => ({
					action,
					actor_email,
					owner_email,
					generation_id,
					prompt,
				}));
		}

		function expectedEntries(person: Person, generationId: string) {
			const about = { actor_email: TEST_ADMIN_EMAIL, owner_email: person.email };
			return [
				{ action: "set-quota", ...about, generation_id: null, prompt: null },
				{ action: "enable", ...about, generation_id: null, prompt: null },
				{ action: "disable", ...about, generation_id: null, prompt: null },
				{ action: "delete", ...about, generation_id: generationId, prompt: "moderated" },
			];
		}

		it("keeps every entry about a person who deleted their own account, with their e-mail", async () => {
			const person = await createTestUser(server);
			const generationId = await actOn(person);
			expect(await entriesAbout(person)).toEqual(expectedEntries(person, generationId));

			// Disabling signed the person out: they sign in again to delete their account.
			const client = new TestClient(server);
			await expectOk(
				client.request("/api/auth/sign-in/email", {
					method: "POST",
					json: { email: person.email, password: person.password },
				}),
			);
			await expectOk(
				client.request("/api/account/delete", { method: "POST", json: { email: person.email } }),
			);

			expect(await entriesAbout(person)).toEqual(expectedEntries(person, generationId));
		});

		it("keeps every entry about a person the administrator deleted, the deletion last", async () => {
			const person = await createTestUser(server);
			const generationId = await actOn(person);

			await expectOk(
				admin.client.request(`/api/admin/people/${person.userId}`, { method: "DELETE" }),
			);

			expect(await entriesAbout(person)).toEqual([
				{
					action: "delete-account",
					actor_email: TEST_ADMIN_EMAIL,
					owner_email: person.email,
					generation_id: null,
					prompt: null,
				},
				...expectedEntries(person, generationId),
			]);
		});
	},
);
