import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateGenerationResponseSchema } from "../../shared/generations/generations";
import { followLink } from "../testing/account-test-kit";
import { FAKE_GOOGLE_USER, type FakeGoogle, startFakeGoogle } from "../testing/fakes/google";
import { waitForFinish } from "../testing/generation-kit";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

type Client = TestClient;

async function generate(client: Client) {
	return client.request("/api/generations", {
		method: "POST",
		json: { prompt: "a lighthouse at dusk", aspectRatio: "--ar 1:1" },
	});
}

/** Generates and waits for the result, so no job is left running when the server stops. */
async function generateToTheEnd(client: Client): Promise<number> {
	const response = await generate(client);
	if (response.status !== 201) return response.status;
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(created.error.message);
	await waitForFinish(client, created.pollingUrl);
	return response.status;
}

async function readEmailVerified(client: Client): Promise<boolean | undefined> {
	const body = (await (await client.request("/api/auth/get-session")).json()) as {
		user: { emailVerified: boolean };
	} | null;
	return body?.user.emailVerified;
}

describe.each(availableDatabaseKinds())("e-mail verification on %s", (kind) => {
	let server: TestServer;
	let inbox: SmtpInbox;
	let google: FakeGoogle;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
		google = await startFakeGoogle();
		server = await createTestServer(kind, {
			mail: { smtpUrl: inbox.smtpUrl, from: "atelier@example.com" },
			requireEmailVerification: true,
			google: {
				clientId: "atelier-test",
				clientSecret: "atelier-test-secret",
				discoveryUrl: google.discoveryUrl,
			},
		});
	});
	afterAll(async () => {
		await server.close();
		await inbox.stop();
		await google.stop();
	});

	it("tells every visitor that generating needs a verified address", async () => {
		const config = await (await new TestClient(server).request("/api/config")).json();
		expect(config).toMatchObject({ emailVerificationRequired: true });
	});

	it("mails a link at sign-up; until it is opened the person may look around but not generate", async () => {
		const since = Date.now();
		const { client, email } = await createTestUser(server);
		const mail = await inbox.waitForMail(email, { since });
		expect(mail.subject).toBe("Verify your e-mail address for Atelier");
		expect(await readEmailVerified(client)).toBe(false);

		expect((await client.request("/api/generations")).status).toBe(200);
		const refused = await generate(client);
		expect(refused.status).toBe(403);
		expect(await refused.json()).toEqual({
			success: false,
			error: {
				code: "EMAIL_NOT_VERIFIED",
				message:
					"Please verify your e-mail address to generate images. Open the link we sent you, or send the e-mail again.",
			},
		});

		const landing = await followLink(client, mail);
		expect(landing.pathname).toBe("/verify-email");
		expect(landing.searchParams.get("error")).toBeNull();
		expect(await readEmailVerified(client)).toBe(true);
		expect(await generateToTheEnd(client)).toBe(201);
	});

	it("sends the e-mail again on request, and the new link works", async () => {
		const { client, email } = await createTestUser(server);
		const since = Date.now() + 1;
		await new Promise((resolve) => setTimeout(resolve, 5));
		const resend = await client.request("/api/auth/send-verification-email", {
			method: "POST",
			json: { email },
		});
		expect(resend.status).toBe(200);
		const mail = await inbox.waitForMail(email, { since });
		await followLink(client, mail);
		expect(await readEmailVerified(client)).toBe(true);
	});

	it("says so when a link is forged or expired, and verifies nothing", async () => {
		const { client } = await createTestUser(server);
		const forged = await client.request(
			"/api/auth/verify-email?token=not-a-token&callbackURL=%2Fverify-email",
			{ redirect: "manual" },
		);
		expect(forged.status).toBe(302);
		const location = new URL(forged.headers.get("location") ?? "", "http://localhost:3000");
		expect(location.pathname).toBe("/verify-email");
		expect(location.searchParams.get("error")).toBe("INVALID_TOKEN");
		expect(await readEmailVerified(client)).toBe(false);
	});

	it("counts a Google account as verified", async () => {
		const client = new TestClient(server);
		const start = await client.request("/api/auth/sign-in/social", {
			method: "POST",
			json: { provider: "google", callbackURL: "/" },
		});
		const { url } = (await start.json()) as { url: string };
		const authorize = await fetch(url, { redirect: "manual" });
		const callback = new URL(authorize.headers.get("location") ?? "");
		await client.request(`${callback.pathname}${callback.search}`);
		const session = (await (await client.request("/api/auth/get-session")).json()) as {
			user: { email: string; emailVerified: boolean };
		};
		expect(session.user.email).toBe(FAKE_GOOGLE_USER.email);
		expect(session.user.emailVerified).toBe(true);
		expect(await generateToTheEnd(client)).toBe(201);
	});
});

describe.each(availableDatabaseKinds())("without REQUIRE_EMAIL_VERIFICATION on %s", (kind) => {
	let server: TestServer;
	let inbox: SmtpInbox;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
		server = await createTestServer(kind, {
			mail: { smtpUrl: inbox.smtpUrl, from: "atelier@example.com" },
		});
	});
	afterAll(async () => {
		await server.close();
		await inbox.stop();
	});

	it("sends no mail at sign-up and lets an unverified person generate", async () => {
		const since = Date.now();
		const { client, email } = await createTestUser(server);
		expect(await readEmailVerified(client)).toBe(false);
		expect(await generateToTheEnd(client)).toBe(201);
		await expect(inbox.waitForMail(email, { since, timeoutMs: 300 })).rejects.toThrow(/no mail/);
		const config = await (await client.request("/api/config")).json();
		expect(config).toMatchObject({ emailVerificationRequired: false });
	});
});
