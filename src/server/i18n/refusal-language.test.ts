import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callWithToken, createToken, makeFinishedGeneration } from "../testing/api-token-kit";
import { makeBoard } from "../testing/board-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { shareRequest } from "../testing/share-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
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

		it("refuses a generation beyond today's quota, and the administrator's own account, in the language asked", async () => {
			const admin = await createTestAdministrator(server);
			const person = await createTestUser(server);
			const setQuota = (headers: Record<string, string>, json: object) =>
				admin.client.request(`/api/admin/people/${person.userId}/quota`, {
					method: "PUT",
					headers,
					json,
				});
			// The quota's own rules, a schema's messages.
			expect(
				await expectErrorEnvelope(
					await setQuota(GERMAN, { maxActive: 0, daily: 1 }),
					400,
					"VALIDATION_ERROR",
				),
			).toBe("Erlaube mindestens 1 aktive Generierung.");
			expect(
				await expectErrorEnvelope(
					await setQuota(ENGLISH, { maxActive: null, daily: 100_001 }),
					400,
					"VALIDATION_ERROR",
				),
			).toBe("At most 100000 generations a day.");
			expect((await setQuota(ENGLISH, { maxActive: null, daily: 1 })).status).toBe(200);

			const start = (headers: Record<string, string>) =>
				person.client.request("/api/generations", {
					method: "POST",
					headers,
					json: { prompt: "a lighthouse at dusk", aspectRatio: "--ar 16:9" },
				});
			expect((await start(ENGLISH)).status).toBe(201);
			expect(await expectErrorEnvelope(await start(GERMAN), 429, "QUOTA_EXCEEDED")).toBe(
				"Du hast das heutige Limit von 1 Generierung erreicht. Bitte versuche es morgen wieder.",
			);
			expect(await expectErrorEnvelope(await start(ENGLISH), 429, "QUOTA_EXCEEDED")).toBe(
				"You have reached today's limit of 1 generations. Please try again tomorrow.",
			);

			const disableSelf = (headers: Record<string, string>) =>
				admin.client.request(`/api/admin/people/${admin.userId}/disable`, {
					method: "POST",
					headers,
				});
			expect(
				await expectErrorEnvelope(await disableSelf(GERMAN), 403, "ADMIN_ACCOUNT_PROTECTED"),
			).toBe("Das Konto des Administrators (ADMIN_EMAIL) kann nicht deaktiviert werden.");
			expect(
				await expectErrorEnvelope(await disableSelf(ENGLISH), 403, "ADMIN_ACCOUNT_PROTECTED"),
			).toBe("The administrator's account (ADMIN_EMAIL) cannot be disabled.");
			// The listing's query, another schema.
			const listPeople = (headers: Record<string, string>) =>
				admin.client.request("/api/admin/people?sort=height", { headers });
			expect(await expectErrorEnvelope(await listPeople(GERMAN), 400, "VALIDATION_ERROR")).toMatch(
				/^sort muss eines von email, signedUp, .* sein$/,
			);
		});

		it("refuses a link to an image the generation lacks, and a link's malformed request, in the language asked", async () => {
			const owner = await createTestUser(server);
			const generation = await makeFinishedGeneration(owner);
			const share = (headers: Record<string, string>, json: object) =>
				owner.client.request("/api/shares", { method: "POST", headers, json });
			const beyond = shareRequest(generation.id, { imageIndex: generation.images.length });
			expect(await expectErrorEnvelope(await share(GERMAN, beyond), 400, "VALIDATION_ERROR")).toBe(
				"target.imageIndex: Diese Generierung hat 1 Bild.",
			);
			expect(await expectErrorEnvelope(await share(ENGLISH, beyond), 400, "VALIDATION_ERROR")).toBe(
				"target.imageIndex: this generation has 1 image.",
			);
			const { originals: _originals, ...withoutOriginals } = shareRequest(generation.id);
			expect(
				await expectErrorEnvelope(await share(GERMAN, withoutOriginals), 400, "VALIDATION_ERROR"),
			).toBe("originals muss true oder false sein");
			// Nothing was made.
			const links = await owner.client.request("/api/shares");
			expect(((await links.json()) as { items: unknown[] }).items).toEqual([]);
		});

		it("refuses deleting a smart board's generations, and a malformed removal of recent prompts, in the language asked", async () => {
			const person = await createTestUser(server);
			const smart = await makeBoard(person.client, { query: { q: "lighthouse" } });
			const deleteWithGenerations = (headers: Record<string, string>) =>
				person.client.request(`/api/boards/${smart.id}?withGenerations=true`, {
					method: "DELETE",
					headers,
				});
			expect(
				await expectErrorEnvelope(await deleteWithGenerations(GERMAN), 400, "VALIDATION_ERROR"),
			).toBe(
				"withGenerations: Ein Smart Board ist eine Suche; lösch seine Generierungen im Verlauf.",
			);
			expect(
				await expectErrorEnvelope(await deleteWithGenerations(ENGLISH), 400, "VALIDATION_ERROR"),
			).toBe(
				"withGenerations: a smart board is a search; delete its generations from the history.",
			);

			const remove = (headers: Record<string, string>) =>
				person.client.request("/api/prompts/recent/remove", { method: "POST", headers, json: {} });
			expect(await expectErrorEnvelope(await remove(GERMAN), 400, "VALIDATION_ERROR")).toBe(
				"Schick { prompt }, um einen Prompt zu entfernen, oder { all: true }, um alle zu entfernen",
			);
			expect(await expectErrorEnvelope(await remove(ENGLISH), 400, "VALIDATION_ERROR")).toBe(
				"Send { prompt } to remove one prompt, or { all: true } to remove them all",
			);
		});
	},
);
