// The refusals of a webhook address, a push service address and an API token's request, in the
// language of the page that asked: German for a German browser, SPEC's English to the letter else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PUSH_SETTINGS } from "../push/push-settings";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { listDevices } from "../testing/push-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

const GERMAN = { "accept-language": "de-DE,de;q=0.9" };
const ENGLISH = { "accept-language": "en-US,en;q=0.9" };
const PUBLIC_HOSTS: Record<string, string[]> = {
	"hooks.example.com": ["93.184.216.34"],
	"intranet.example.com": ["10.1.2.3"],
};
const resolveHost = async (hostname: string) => PUBLIC_HOSTS[hostname] ?? [];
// A browser's subscription keys, of the lengths the schema asks for.
const KEYS = { p256dh: Buffer.alloc(65, 4).toString("base64url"), auth: "A".repeat(22) };

describe.each(availableDatabaseKinds())(
	"endpoint refusals in the page's language on %s",
	(kind) => {
		let server: TestServer;

		beforeAll(async () => {
			server = await createTestServer(kind, {
				isWorkerEnabled: false,
				webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivateTargets: false, resolveHost },
				push: { ...DEFAULT_PUSH_SETTINGS, allowPrivateTargets: false, resolveHost },
			});
		});
		afterAll(async () => {
			await server?.close();
		});

		it("refuses a webhook address in German, and in the exact English, saving nothing", async () => {
			const { client } = await createTestUser(server);
			const cases: [unknown, string, string][] = [
				[
					{ url: "https://nowhere.example.com/hooks", events: ["generation.completed"] },
					"nowhere.example.com wurde nicht gefunden. Prüfe die Adresse.",
					"nowhere.example.com could not be found. Check the address.",
				],
				[
					{ url: "https://intranet.example.com/hooks", events: ["generation.completed"] },
					"intranet.example.com ist keine öffentliche Adresse; Webhooks gehen nur an öffentliche Adressen.",
					"intranet.example.com is not a public address; webhooks go only to public addresses.",
				],
				[
					{ url: "not a url", events: ["generation.completed"] },
					"Das ist keine URL. Sie sollte so aussehen: https://example.com/hooks.",
					"That is not a URL. It should look like https://example.com/hooks.",
				],
				[
					{ url: "ftp://hooks.example.com/x", events: ["generation.completed"] },
					"Die URL muss mit https:// beginnen.",
					"The URL must start with https://.",
				],
				[
					{ url: "https://user:pass@hooks.example.com/x", events: ["generation.completed"] },
					"Die URL darf keinen Benutzernamen und kein Passwort enthalten.",
					"The URL must not contain a user name or password.",
				],
				[
					{
						url: `https://hooks.example.com/${"x".repeat(2000)}`,
						events: ["generation.completed"],
					},
					"Die URL ist länger als 2000 Zeichen.",
					"The URL is longer than 2000 characters.",
				],
				[
					{ url: "", events: ["generation.completed"] },
					"Gib die URL des Endpunkts an.",
					"Give the endpoint's URL.",
				],
				[
					{ url: "https://hooks.example.com/x", events: ["generation.started"] },
					"Wähle generation.completed, generation.failed oder generation.deleted.",
					"Choose generation.completed, generation.failed or generation.deleted.",
				],
				[
					{ url: "https://hooks.example.com/x", events: [] },
					"Wähle mindestens ein Ereignis.",
					"Choose at least one event.",
				],
				[
					undefined,
					"Gib die URL und die Ereignisse des Endpunkts an.",
					"Give the endpoint's url and events.",
				],
			];
			for (const [json, german, english] of cases) {
				for (const [headers, expected] of [
					[GERMAN, german],
					[ENGLISH, english],
				] as const) {
					const response = await client.request("/api/account/webhooks", {
						method: "POST",
						headers: { ...headers, "content-type": "application/json" },
						...(json === undefined ? { body: "null" } : { json }),
					});
					expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(expected);
				}
			}
			const listed = await (await client.request("/api/account/webhooks")).json();
			expect(listed).toEqual({ items: [] });
		});

		it("refuses a push service address in German, and in the exact English, saving nothing", async () => {
			const { client } = await createTestUser(server);
			const cases: [unknown, string, string][] = [
				[
					{ endpoint: "https://nowhere.example.com/push", keys: KEYS },
					"nowhere.example.com wurde nicht gefunden.",
					"nowhere.example.com could not be found.",
				],
				[
					{ endpoint: "https://intranet.example.com/push", keys: KEYS },
					"intranet.example.com ist keine öffentliche Adresse; Benachrichtigungen gehen nur an öffentliche Push-Dienste.",
					"intranet.example.com is not a public address; notifications go only to public push services.",
				],
				[
					{ endpoint: "not a url", keys: KEYS },
					"Der Endpunkt ist keine URL.",
					"The endpoint is not a URL.",
				],
				[
					{ endpoint: "http://hooks.example.com/push", keys: KEYS },
					"Der Endpunkt muss mit https:// beginnen.",
					"The endpoint must start with https://.",
				],
				[
					{ endpoint: "https://user:pass@hooks.example.com/push", keys: KEYS },
					"Der Endpunkt darf keinen Benutzernamen und kein Passwort enthalten.",
					"The endpoint must not contain a user name or password.",
				],
				[
					null,
					"Gib den Endpunkt und die Schlüssel des Abonnements an.",
					"Give the subscription's endpoint and keys.",
				],
			];
			for (const [json, german, english] of cases) {
				for (const [headers, expected] of [
					[GERMAN, german],
					[ENGLISH, english],
				] as const) {
					const response = await client.request("/api/account/push/subscriptions", {
						method: "POST",
						headers,
						json,
					});
					expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(expected);
				}
			}
			expect(await listDevices(client)).toEqual([]);
		});

		it("refuses an API token's scopes and lifetime in German, and in the exact English", async () => {
			const { client } = await createTestUser(server);
			const cases: [object, string, string][] = [
				[
					{ name: "script", scopes: "read", expiresInDays: 30 },
					"scopes muss eine Liste aus generate, read, delete, organize, share sein",
					"scopes must be a list of generate, read, delete, organize, share",
				],
				[
					{ name: "script", scopes: ["read"], expiresInDays: 7 },
					"expiresInDays muss 30, 90, 365 oder null sein",
					"expiresInDays must be 30, 90, 365 or null",
				],
			];
			for (const [json, german, english] of cases) {
				for (const [headers, expected] of [
					[GERMAN, german],
					[ENGLISH, english],
				] as const) {
					const response = await client.request("/api/account/tokens", {
						method: "POST",
						headers,
						json,
					});
					expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(expected);
				}
			}
			expect(await (await client.request("/api/account/tokens")).json()).toMatchObject({
				tokens: [],
			});
		});
	},
);
