import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { countWebhooks, makeHoldings, tokenStatus } from "../testing/account-holdings-kit";
import { readSessionEmail } from "../testing/account-test-kit";
import { readResetToken } from "../testing/reset-token";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

const NEW_PASSWORD = "a password only the owner knows";

describe.each(availableDatabaseKinds())("taking an account back on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, {
			// The endpoints name a public host; the test resolves it without a network.
			webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, resolveHost: async () => ["93.184.215.14"] },
		});
	});
	afterAll(async () => {
		await server.close();
	});

	it("ends, with a password reset, every token and webhook whoever held the account made", async () => {
		const squatter = await createTestUser(server);
		const { token } = await makeHoldings(squatter.client);
		expect(await tokenStatus(server, token)).toBe(200);

		const owner = new TestClient(server, "198.51.100.30");
		const asked = await owner.request("/api/auth/request-password-reset", {
			method: "POST",
			json: { email: squatter.email },
		});
		expect(asked.status).toBe(200);
		const reset = await owner.request("/api/auth/reset-password", {
			method: "POST",
			json: { token: await readResetToken(server, squatter.userId), newPassword: NEW_PASSWORD },
		});
		expect(reset.status).toBe(200);

		expect(await readSessionEmail(squatter.client)).toBeNull();
		expect(await tokenStatus(server, token)).toBe(401);
		expect(await countWebhooks(owner)).toBe(0);
		// What the owner makes afterwards works.
		const { token: ownersToken } = await makeHoldings(owner);
		expect(await tokenStatus(server, ownersToken)).toBe(200);
		expect(await countWebhooks(owner)).toBe(1);
	});

	it("ends them with a password change that signs the other devices out, and only then", async () => {
		const person = await createTestUser(server);
		const { token } = await makeHoldings(person.client);
		const change = (revokeOtherSessions: boolean, currentPassword: string, newPassword: string) =>
			person.client.request("/api/auth/change-password", {
				method: "POST",
				json: { currentPassword, newPassword, revokeOtherSessions },
			});

		expect((await change(false, person.password, NEW_PASSWORD)).status).toBe(200);
		expect(await tokenStatus(server, token)).toBe(200);
		expect(await countWebhooks(person.client)).toBe(1);

		expect((await change(true, NEW_PASSWORD, person.password)).status).toBe(200);
		expect(await readSessionEmail(person.client)).toBe(person.email);
		expect(await tokenStatus(server, token)).toBe(401);
		expect(await countWebhooks(person.client)).toBe(0);
	});
});
