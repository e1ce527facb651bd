import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { countWebhooks, makeHoldings, tokenStatus } from "../testing/account-holdings-kit";
import { followLink } from "../testing/account-test-kit";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { TEST_ADMIN_EMAIL } from "../testing/test-settings";

const CLAIM_SUBJECT = "Claim the Atelier administrator's account";
const OWNER_PASSWORD = "the owner's own password";

type SessionAnswer = { user: { isAdmin: boolean; isAdminUnclaimed: boolean } } | null;

async function readSession(client: TestClient): Promise<SessionAnswer> {
	return (await (await client.request("/api/auth/get-session")).json()) as SessionAnswer;
}

async function peopleStatus(client: TestClient): Promise<number> {
	return (await client.request("/api/admin/people")).status;
}

async function signInStatus(server: TestServer, email: string, password: string) {
	const response = await new TestClient(server, "203.0.113.77").request("/api/auth/sign-in/email", {
		method: "POST",
		json: { email, password },
	});
	return response.status;
}

/** Opens the claim link from the mail in a browser of its own and chooses the password there. */
async function claimFromMail(server: TestServer, inbox: SmtpInbox, since: number) {
	const mail = await inbox.waitForMail(TEST_ADMIN_EMAIL, { since });
	expect(mail.subject).toBe(CLAIM_SUBJECT);
	const owner = new TestClient(server, "198.51.100.20");
	const landing = await followLink(owner, mail);
	expect(landing.pathname).toBe("/reset-password");
	const token = landing.searchParams.get("token");
	const reset = await owner.request("/api/auth/reset-password", {
		method: "POST",
		json: { token, newPassword: OWNER_PASSWORD },
	});
	expect(reset.status).toBe(200);
	return owner;
}

describe.each(availableDatabaseKinds())("claiming the administrator's account on %s", (kind) => {
	describe.each([
		{ requireEmailVerification: false, name: "without e-mail verification" },
		{ requireEmailVerification: true, name: "with REQUIRE_EMAIL_VERIFICATION" },
	])("$name", ({ requireEmailVerification }) => {
		let server: TestServer;
		let inbox: SmtpInbox;

		beforeAll(async () => {
			inbox = await startSmtpInbox();
			server = await createTestServer(kind, {
				requireEmailVerification,
				mail: { smtpUrl: inbox.smtpUrl, from: "Atelier <atelier@example.com>" },
				webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, resolveHost: async () => ["93.184.215.14"] },
			});
		});
		afterAll(async () => {
			await server.close();
			await inbox.stop();
		});

		it("gives the first sign-up with ADMIN_EMAIL no powers; the mailed link claims them and ends all the sign-up made", async () => {
			const since = Date.now();
			const squatter = await createTestUser(server, { email: TEST_ADMIN_EMAIL });
			expect((await readSession(squatter.client))?.user).toMatchObject({
				isAdmin: false,
				isAdminUnclaimed: true,
			});
			expect(await peopleStatus(squatter.client)).toBe(404);

			// Asking for the verification mail again sends the claim link again, never the ordinary
			// link, which would leave the sign-up's password in place; the newer link claims.
			expect((await inbox.waitForMail(TEST_ADMIN_EMAIL, { since })).subject).toBe(CLAIM_SUBJECT);
			const resentSince = Date.now() + 1;
			await new Promise((resolve) => setTimeout(resolve, 5));
			const resend = await squatter.client.request("/api/auth/send-verification-email", {
				method: "POST",
				json: { email: TEST_ADMIN_EMAIL },
			});
			expect(resend.status).toBe(200);

			// Even an address counted verified (the ordinary link) carries no powers. Verified, the
			// squatter may mint tokens and save webhooks even where verification is required.
			await sql`update "user" set "emailVerified" = true where id = ${squatter.userId}`.execute(
				server.database.db,
			);
			expect(await peopleStatus(squatter.client)).toBe(404);
			expect((await readSession(squatter.client))?.user.isAdmin).toBe(false);
			const { token } = await makeHoldings(squatter.client);

			const owner = await claimFromMail(server, inbox, resentSince);
			expect((await readSession(owner))?.user).toMatchObject({
				isAdmin: true,
				isAdminUnclaimed: false,
			});
			expect(await peopleStatus(owner)).toBe(200);

			expect(await readSession(squatter.client)).toBeNull();
			expect(await signInStatus(server, TEST_ADMIN_EMAIL, squatter.password)).toBe(401);
			expect(await signInStatus(server, TEST_ADMIN_EMAIL, OWNER_PASSWORD)).toBe(200);
			expect(await tokenStatus(server, token)).toBe(401);
			expect(await countWebhooks(owner)).toBe(0);

			// Forgot password works for the address as for any other, and is a plain reset now.
			const resetSince = Date.now();
			const asked = await new TestClient(server).request("/api/auth/request-password-reset", {
				method: "POST",
				json: { email: TEST_ADMIN_EMAIL },
			});
			expect(asked.status).toBe(200);
			const mail = await inbox.waitForMail(TEST_ADMIN_EMAIL, { since: resetSince });
			expect(mail.subject).toBe("Reset your Atelier password");
		});
	});
});
