import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

function requestReset(client: TestClient, email: string) {
	return client.request("/api/auth/request-password-reset", { method: "POST", json: { email } });
}

describe.each(availableDatabaseKinds())("reset and verification mail limits on %s", (kind) => {
	let server: TestServer;
	let inbox: SmtpInbox;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
		server = await createTestServer(kind, {
			isRateLimitEnabled: true,
			mail: { smtpUrl: inbox.smtpUrl, from: "atelier@example.com" },
		});
	});
	afterAll(async () => {
		await server.close();
		await inbox.stop();
	});

	it("sends one address at most three e-mails an hour, whoever asks, account or not", async () => {
		const { email } = await createTestUser(server);
		const nobody = `nobody-${Date.now()}@example.com`;
		for (const address of [email, nobody]) {
			const statuses: number[] = [];
			for (let attempt = 0; attempt < 4; attempt++) {
				// A new client address every time: the limit follows the e-mail address.
				const client = new TestClient(server, `198.51.100.${attempt + 1}`);
				const response = await requestReset(
					client,
					attempt === 3 ? address.toUpperCase() : address,
				);
				statuses.push(response.status);
				if (response.status === 429) {
					expect(await response.json()).toEqual({
						success: false,
						error: {
							code: "RATE_LIMITED",
							message:
								"Too many e-mails were asked for this address. Please wait an hour and try again.",
						},
					});
				}
			}
			expect(statuses).toEqual([200, 200, 200, 429]);
		}
		const other = await requestReset(new TestClient(server, "198.51.100.9"), `other-${email}`);
		expect(other.status).toBe(200);
		const { rows } = await server.database.pool.query<{ key: string }>(
			"select key from address_rate_limits",
		);
		expect(rows.some((row) => row.key.includes("@"))).toBe(false);
	});

	it("limits the verification e-mail per address too", async () => {
		const { client, email } = await createTestUser(server);
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 4; attempt++) {
			const response = await client.request("/api/auth/send-verification-email", {
				method: "POST",
				json: { email },
			});
			statuses.push(response.status);
		}
		expect(statuses).toEqual([200, 200, 200, 429]);
	});

	it("sends one client at most five reset e-mails in ten minutes, whatever the addresses", async () => {
		const client = new TestClient(server, "192.0.2.77");
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 6; attempt++) {
			const response = await requestReset(client, `client-${attempt}-${Date.now()}@example.com`);
			statuses.push(response.status);
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
	});
});
