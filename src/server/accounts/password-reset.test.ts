import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followLink, readSessionEmail } from "../testing/account-test-kit";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

const NEW_PASSWORD = "a brand new password";

async function requestReset(client: TestClient, email: string) {
	return client.request("/api/auth/request-password-reset", { method: "POST", json: { email } });
}

async function resetPassword(client: TestClient, token: string, newPassword = NEW_PASSWORD) {
	return client.request("/api/auth/reset-password", {
		method: "POST",
		json: { token, newPassword },
	});
}

async function signInStatus(email: string, password: string, server: TestServer) {
	const client = new TestClient(server);
	const response = await client.request("/api/auth/sign-in/email", {
		method: "POST",
		json: { email, password },
	});
	return response.status;
}

describe.each(availableDatabaseKinds())("password reset on %s", (kind) => {
	let server: TestServer;
	let inbox: SmtpInbox;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
		server = await createTestServer(kind, {
			mail: { smtpUrl: inbox.smtpUrl, from: "Atelier <atelier@example.com>" },
		});
	});
	afterAll(async () => {
		await server.close();
		await inbox.stop();
	});

	it("answers the same whether or not the address has an account, and mails only a real one", async () => {
		const { email } = await createTestUser(server);
		const since = Date.now();
		const client = new TestClient(server);

		const known = await requestReset(client, email);
		const unknown = await requestReset(client, `nobody-${Date.now()}@example.com`);
		expect(known.status).toBe(200);
		expect(unknown.status).toBe(200);
		expect(await unknown.json()).toEqual(await known.json());

		const mail = await inbox.waitForMail(email, { since });
		expect(mail.from).toBe("atelier@example.com");
		expect(mail.subject).toBe("Reset your Atelier password");
		expect(mail.text).toContain("expires in one hour");
		expect(mail.html).toContain(mail.links[0]?.replaceAll("&", "&amp;"));
		expect(inbox.messages().filter((message) => message.receivedAt >= since)).toHaveLength(1);
	});

	it("sets a new password once through the link, signs this browser in and every other session out", async () => {
		const { client: laptop, email, password } = await createTestUser(server);
		const phone = new TestClient(server, "203.0.113.20");
		await phone.request("/api/auth/sign-in/email", { method: "POST", json: { email, password } });
		expect(await readSessionEmail(phone)).toBe(email);

		const since = Date.now();
		const browser = new TestClient(server, "203.0.113.30");
		expect((await requestReset(browser, email)).status).toBe(200);
		const mail = await inbox.waitForMail(email, { since });

		const landing = await followLink(browser, mail);
		expect(landing.pathname).toBe("/reset-password");
		const token = landing.searchParams.get("token") ?? "";
		expect(token).not.toBe("");

		const reset = await resetPassword(browser, token);
		expect(reset.status).toBe(200);
		expect(await readSessionEmail(browser)).toBe(email);
		expect(await readSessionEmail(laptop)).toBeNull();
		expect(await readSessionEmail(phone)).toBeNull();
		expect(await signInStatus(email, password, server)).toBe(401);
		expect(await signInStatus(email, NEW_PASSWORD, server)).toBe(200);

		// The link works once.
		const again = await resetPassword(new TestClient(server), token, "yet another password");
		expect(again.status).toBe(400);
		expect(((await again.json()) as { code: string }).code).toBe("INVALID_TOKEN");
		const usedLink = await followLink(new TestClient(server), mail);
		expect(usedLink.pathname).toBe("/reset-password");
		expect(usedLink.searchParams.get("error")).toBe("INVALID_TOKEN");
	});

	it("says an expired link has expired", async () => {
		const { email } = await createTestUser(server);
		const since = Date.now();
		await requestReset(new TestClient(server), email);
		const mail = await inbox.waitForMail(email, { since });
		await server.database.pool.query(
			`update verification set "expiresAt" = now() - interval '1 minute' where identifier like 'reset-password:%'`,
		);

		const landing = await followLink(new TestClient(server), mail);
		expect(landing.searchParams.get("error")).toBe("INVALID_TOKEN");
		const token = new URL(mail.links[0] ?? "").pathname.split("/").at(-1) ?? "";
		const reset = await resetPassword(new TestClient(server), token);
		expect(reset.status).toBe(400);
		expect(((await reset.json()) as { code: string }).code).toBe("INVALID_TOKEN");
	});

	it("keeps the sign-up rules for the new password and answers bad input with a message", async () => {
		const { email } = await createTestUser(server);
		const since = Date.now();
		await requestReset(new TestClient(server), email);
		const landing = await followLink(
			new TestClient(server),
			await inbox.waitForMail(email, { since }),
		);
		const token = landing.searchParams.get("token") ?? "";

		const short = await resetPassword(new TestClient(server), token, "12345");
		expect(short.status).toBe(400);
		expect(((await short.json()) as { message: string }).message).toMatch(/password too short/i);

		const notAnAddress = await requestReset(new TestClient(server), "not an address");
		expect(notAnAddress.status).toBe(400);
		expect(((await notAnAddress.json()) as { message: string }).message).toMatch(/email/i);
	});

	it("counts the reset as a verification of the address", async () => {
		const { email } = await createTestUser(server);
		const since = Date.now();
		const browser = new TestClient(server);
		await requestReset(browser, email);
		const landing = await followLink(browser, await inbox.waitForMail(email, { since }));
		await resetPassword(browser, landing.searchParams.get("token") ?? "");
		const session = (await (await browser.request("/api/auth/get-session")).json()) as {
			user: { emailVerified: boolean };
		};
		expect(session.user.emailVerified).toBe(true);
	});
});
