import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "../../shared/core/errors";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

describe.each(availableDatabaseKinds())("the server's languages on %s", (kind) => {
	let server: TestServer;
	let inbox: SmtpInbox;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
		server = await createTestServer(kind, {
			mail: { smtpUrl: inbox.smtpUrl, from: "atelier@example.com" },
			requireEmailVerification: true,
		});
	});
	afterAll(async () => {
		await server.close();
		await inbox.stop();
	});

	async function readError(headers: Record<string, string>) {
		const response = await new TestClient(server).request("/api/no-such-route", { headers });
		expect(response.status).toBe(404);
		return ((await response.json()) as { error: { code: string; message: string } }).error;
	}

	it("answers an error in the language the browser asks for, English by default", async () => {
		expect(await readError({})).toEqual({ code: "NOT_FOUND", message: ERRORS.NOT_FOUND.message });
		expect(await readError({ "accept-language": "de-DE,de;q=0.9,en;q=0.5" })).toEqual({
			code: "NOT_FOUND",
			message: "Nicht gefunden.",
		});
		expect(await readError({ "accept-language": "fr-FR" })).toEqual({
			code: "NOT_FOUND",
			message: "Not found.",
		});
	});

	it("takes this browser's chosen language over its Accept-Language", async () => {
		const error = await readError({
			"accept-language": "en-US",
			cookie: "atelier-language=de",
		});
		expect(error.message).toBe("Nicht gefunden.");
		const english = await readError({ "accept-language": "de", cookie: "atelier-language=en" });
		expect(english.message).toBe("Not found.");
	});

	it("answers a thrown catalogue error in German, a refusal naming its field as written", async () => {
		const visitor = new TestClient(server);
		const refused = await visitor.request("/api/account/settings", {
			headers: { "accept-language": "de" },
		});
		expect(await refused.json()).toEqual({
			success: false,
			error: {
				code: "AUTH_ERROR",
				message: "Die Anmeldung ist fehlgeschlagen. Bitte melde dich erneut an.",
			},
		});
	});

	it("mails the verification in the language of the browser that signed up", async () => {
		const email = `deutsch-${Date.now()}@example.com`;
		const since = Date.now();
		const client = new TestClient(server);
		const signedUp = await client.request("/api/auth/sign-up/email", {
			method: "POST",
			headers: { "accept-language": "de-AT,de;q=0.9" },
			json: { email, password: "correct horse battery", name: "deutsch" },
		});
		expect(signedUp.status).toBe(200);
		const mail = await inbox.waitForMail(email, { since });
		expect(mail.subject).toBe("Bestätige deine E-Mail-Adresse für Atelier");
		expect(mail.text).toContain(`Bitte bestätige, dass ${email} deine Adresse ist`);
		expect(mail.html).toContain('<html lang="de">');
	});

	it("mails a reset in the account's language, whatever the asking browser reads", async () => {
		const person = await createTestUser(server);
		// Its sign-up's verification first, so the reset is the next mail.
		const verification = await inbox.waitForMail(person.email);
		const chosen = await person.client.request("/api/account/settings", {
			method: "PATCH",
			json: { language: "de" },
		});
		expect(chosen.status).toBe(200);
		const since = verification.receivedAt + 1;
		const asked = await new TestClient(server).request("/api/auth/request-password-reset", {
			method: "POST",
			headers: { "accept-language": "en-US" },
			json: { email: person.email },
		});
		expect(asked.status).toBe(200);
		const mail = await inbox.waitForMail(person.email, { since });
		expect(mail.subject).toBe("Setze dein Atelier-Passwort zurück");

		const englishPerson = await createTestUser(server);
		const englishSince = (await inbox.waitForMail(englishPerson.email)).receivedAt + 1;
		await new TestClient(server).request("/api/auth/request-password-reset", {
			method: "POST",
			json: { email: englishPerson.email },
		});
		const englishMail = await inbox.waitForMail(englishPerson.email, { since: englishSince });
		expect(englishMail.subject).toBe("Reset your Atelier password");
	});
});
