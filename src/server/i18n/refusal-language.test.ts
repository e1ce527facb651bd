import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

const GERMAN = { "accept-language": "de-DE,de;q=0.9" };
const ENGLISH = { "accept-language": "en-US,en;q=0.9" };

describe.each(availableDatabaseKinds())(
	"refusals with their own message, in the person's language on %s",
	(kind) => {
		let server: TestServer;

		beforeAll(async () => {
			server = await createTestServer(kind, { isRateLimitEnabled: true });
		});
		afterAll(async () => {
			await server.close();
		});

		it("refuses a deletion whose confirmation is wrong or missing in German, and in English", async () => {
			const person = await createTestUser(server);
			const deleteAccount = (headers: Record<string, string>, json: object) =>
				person.client.request("/api/account/delete", { method: "POST", headers, json });

			const wrong = { email: "someone@example.com" };
			expect(
				await expectErrorEnvelope(await deleteAccount(GERMAN, wrong), 400, "VALIDATION_ERROR"),
			).toBe("Das ist nicht deine E-Mail-Adresse. Gib sie zur Bestätigung genau so ein.");
			expect(
				await expectErrorEnvelope(await deleteAccount(ENGLISH, wrong), 400, "VALIDATION_ERROR"),
			).toBe("That is not your e-mail address. Type it exactly to confirm.");
			// A schema's own message (the request's field is missing) follows the language too.
			expect(
				await expectErrorEnvelope(await deleteAccount(GERMAN, {}), 400, "VALIDATION_ERROR"),
			).toBe("Gib zur Bestätigung deine E-Mail-Adresse ein.");
			expect(
				await expectErrorEnvelope(await deleteAccount(ENGLISH, {}), 400, "VALIDATION_ERROR"),
			).toBe("Type your e-mail address to confirm.");
			// Nothing was lost: the account is still there.
			expect((await person.client.request("/api/account/export")).status).toBe(200);
		});

		it("refuses a fourth reset e-mail in an hour in the browser's language", async () => {
			const { email } = await createTestUser(server);
			const requestReset = (attempt: number, headers: Record<string, string>) =>
				new TestClient(server, `198.51.100.${60 + attempt}`).request(
					"/api/auth/request-password-reset",
					{ method: "POST", headers, json: { email, redirectTo: "/reset-password" } },
				);
			for (let attempt = 0; attempt < 3; attempt++) {
				expect((await requestReset(attempt, ENGLISH)).status).toBe(200);
			}
			expect(await expectErrorEnvelope(await requestReset(3, GERMAN), 429, "RATE_LIMITED")).toBe(
				"Für diese Adresse wurden zu viele E-Mails angefordert. Bitte warte eine Stunde und versuche es dann erneut.",
			);
			expect(await expectErrorEnvelope(await requestReset(4, ENGLISH), 429, "RATE_LIMITED")).toBe(
				"Too many e-mails were asked for this address. Please wait an hour and try again.",
			);
		});

		it("names the scope a token lacks in the caller's language", async () => {
			const person = await createTestUser(server);
			const { token } = await createToken(person, ["read"]);
			const start = (headers: Record<string, string>) =>
				callWithToken(server, token, "/api/generations", {
					method: "POST",
					headers,
					json: { prompt: "a lighthouse" },
				});
			expect(await expectErrorEnvelope(await start(GERMAN), 403, "TOKEN_SCOPE_MISSING")).toBe(
				'Diesem API-Token fehlt der Bereich "generate", den diese Anfrage braucht.',
			);
			expect(await expectErrorEnvelope(await start(ENGLISH), 403, "TOKEN_SCOPE_MISSING")).toBe(
				'This API token does not have the "generate" scope this request needs.',
			);
		});
	},
);
