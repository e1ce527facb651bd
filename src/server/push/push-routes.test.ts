// The account's Web Push routes, as an attacker tries them: signed out, with an API token, on
// someone else's device, with bad input, and with push service addresses that are not public https.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TOKEN_SCOPES } from "../../shared/account/api-tokens";
import { PushKeySchema } from "../../shared/notifications/push";
import { DEFAULT_PUSH_SETTINGS } from "../push/push-settings";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { listDevices, subscribeDevice } from "../testing/push-kit";
import { startPushService } from "../testing/push-service";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";
import { deriveVapidKeys } from "./vapid-keys";

const SUBSCRIPTIONS = "/api/account/push/subscriptions";
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

// A public push service by name; its DNS answer is the test's own.
const PUBLIC_HOSTS: Record<string, string[]> = {
	"push.example.com": ["93.184.216.34"],
	"rebound.example.com": ["10.1.2.3"],
};

describe.each(availableDatabaseKinds())("Web Push routes (%s)", (kind) => {
	let server: TestServer;
	let pushService: Awaited<ReturnType<typeof startPushService>>;

	/** A browser's subscription at the public push service (nothing is sent to it here). */
	function publicSubscription(path: string = crypto.randomUUID()) {
		const { keys } = pushService.subscribe();
		return { endpoint: `https://push.example.com/send/${path}`, keys };
	}

	beforeAll(async () => {
		pushService = await startPushService();
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			push: {
				...DEFAULT_PUSH_SETTINGS,
				resolveHost: async (hostname) => PUBLIC_HOSTS[hostname] ?? [],
			},
		});
	});
	afterAll(async () => {
		await pushService?.close();
		await server?.close();
	});

	it("gives the public key derived from the server's secret, and only that", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/account/push/key");
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(Object.keys(body)).toEqual(["publicKey"]);
		const { publicKey } = PushKeySchema.parse(body);
		expect(publicKey).toBe(deriveVapidKeys(createTestSettings().secret).publicKey);
		expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
	});

	it("answers 401 to someone signed out, on every route", async () => {
		const anonymous = new TestClient(server);
		const calls: [string, string][] = [
			["GET", "/api/account/push/key"],
			["GET", SUBSCRIPTIONS],
			["POST", SUBSCRIPTIONS],
			["DELETE", `${SUBSCRIPTIONS}/${UNKNOWN_ID}`],
			["POST", `${SUBSCRIPTIONS}/${UNKNOWN_ID}/test`],
		];
		for (const [method, path] of calls) {
			const response = await anonymous.request(path, {
				method,
				...(method === "POST" ? { json: publicSubscription() } : {}),
			});
			await expectErrorEnvelope(response, 401, "AUTH_ERROR");
		}
	});

	it("refuses an API token of every scope: a browser session only", async () => {
		const person = await createTestUser(server);
		const id = await subscribeDevice(person.client, publicSubscription());
		for (const scope of API_TOKEN_SCOPES) {
			const { token } = await createToken(person, [scope]);
			const calls: [string, string, unknown][] = [
				["GET", "/api/account/push/key", undefined],
				["GET", SUBSCRIPTIONS, undefined],
				["POST", SUBSCRIPTIONS, publicSubscription()],
				["DELETE", `${SUBSCRIPTIONS}/${id}`, undefined],
				["POST", `${SUBSCRIPTIONS}/${id}/test`, undefined],
			];
			for (const [method, path, json] of calls) {
				const response = await callWithToken(server, token, path, {
					method,
					...(json ? { json } : {}),
				});
				await expectErrorEnvelope(response, 403, "TOKEN_NOT_ALLOWED");
			}
		}
		expect((await listDevices(person.client)).map((device) => device.id)).toEqual([id]);
	});

	it("answers 404 for someone else's device, and leaves it alone", async () => {
		const owner = await createTestUser(server);
		const intruder = await createTestUser(server);
		const id = await subscribeDevice(owner.client, publicSubscription());
		await expectErrorEnvelope(
			await intruder.client.request(`${SUBSCRIPTIONS}/${id}`, { method: "DELETE" }),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await intruder.client.request(`${SUBSCRIPTIONS}/${id}/test`, { method: "POST" }),
			404,
			"NOT_FOUND",
		);
		await expectErrorEnvelope(
			await intruder.client.request(`${SUBSCRIPTIONS}/not-a-uuid`, { method: "DELETE" }),
			404,
			"NOT_FOUND",
		);
		expect(await listDevices(intruder.client)).toEqual([]);
		expect((await listDevices(owner.client)).map((device) => device.id)).toEqual([id]);
	});

	it("gives the administrator no reach over anyone's devices, and refuses their token of every scope", async () => {
		const owner = await createTestUser(server);
		const id = await subscribeDevice(owner.client, publicSubscription());
		const admin = await createTestAdministrator(server);
		expect(await listDevices(admin.client)).toEqual([]);
		for (const [method, path] of [
			["DELETE", `${SUBSCRIPTIONS}/${id}`],
			["POST", `${SUBSCRIPTIONS}/${id}/test`],
		] as const) {
			await expectErrorEnvelope(await admin.client.request(path, { method }), 404, "NOT_FOUND");
		}
		for (const scope of API_TOKEN_SCOPES) {
			const { token } = await createToken(admin, [scope]);
			for (const [method, path] of [
				["GET", SUBSCRIPTIONS],
				["DELETE", `${SUBSCRIPTIONS}/${id}`],
			] as const) {
				await expectErrorEnvelope(
					await callWithToken(server, token, path, { method }),
					403,
					"TOKEN_NOT_ALLOWED",
				);
			}
		}
		expect((await listDevices(owner.client)).map((device) => device.id)).toEqual([id]);
	});

	it("refuses bad input with a 400 naming what is wrong, storing nothing", async () => {
		const { client } = await createTestUser(server);
		const { keys } = publicSubscription();
		const cases: [unknown, RegExp][] = [
			[undefined, /endpoint/],
			[{ keys }, /endpoint/],
			[{ endpoint: "https://push.example.com/x" }, /keys/],
			[{ endpoint: "https://push.example.com/x", keys: { ...keys, p256dh: "short" } }, /p256dh/],
			[{ endpoint: "https://push.example.com/x", keys: { ...keys, auth: "" } }, /auth/],
			[{ endpoint: "not a url", keys }, /not a URL/],
			[{ endpoint: `https://push.example.com/${"x".repeat(2000)}`, keys }, /longer than/],
			[{ endpoint: "https://push.example.com/x", keys, label: "y".repeat(101) }, /label/],
		];
		for (const [json, message] of cases) {
			const response = await client.request(SUBSCRIPTIONS, {
				method: "POST",
				...(json === undefined ? { body: "{" } : { json }),
				headers: { "content-type": "application/json" },
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toMatch(message);
		}
		expect(await listDevices(client)).toEqual([]);
	});

	it("refuses a push service that is not public https, as webhook targets are", async () => {
		const { client } = await createTestUser(server);
		const { keys } = publicSubscription();
		const cases: [string, RegExp][] = [
			[`${pushService.origin}/push/local`, /not a public address/],
			["https://10.0.0.7/push", /not a public address/],
			["https://[::1]/push", /not a public address/],
			["https://169.254.169.254/latest", /not a public address/],
			["https://rebound.example.com/push", /not a public address/],
			["http://push.example.com/push", /https:\/\//],
			["ftp://push.example.com/push", /https:\/\//],
			["https://user:pass@push.example.com/push", /user name/],
			["https://nowhere.example.com/push", /could not be found/],
		];
		for (const [endpoint, message] of cases) {
			const response = await client.request(SUBSCRIPTIONS, {
				method: "POST",
				json: { endpoint, keys },
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toMatch(message);
		}
		expect(await listDevices(client)).toEqual([]);
	});

	it("lists the person's devices, replaces one subscribing again, and removes one", async () => {
		const { client } = await createTestUser(server);
		const phone = publicSubscription("phone");
		const laptop = publicSubscription("laptop");
		const firstId = await subscribeDevice(client, phone, "Chrome on Android");
		const laptopId = await subscribeDevice(client, laptop, "Firefox on Linux");
		const devices = await listDevices(client);
		expect(devices.map(({ label, endpoint }) => ({ label, endpoint }))).toEqual([
			{ label: "Chrome on Android", endpoint: phone.endpoint },
			{ label: "Firefox on Linux", endpoint: laptop.endpoint },
		]);
		expect(devices[0]?.lastNotifiedAt).toBeNull();
		expect(Date.parse(devices[0]?.createdAt ?? "")).not.toBeNaN();

		// The same endpoint again (new keys after the browser renewed them) replaces it.
		const renewed = { endpoint: phone.endpoint, keys: pushService.subscribe().keys };
		const secondId = await subscribeDevice(client, renewed, "Chrome on Android");
		expect(secondId).not.toBe(firstId);
		expect((await listDevices(client)).map((device) => device.id).sort()).toEqual(
			[secondId, laptopId].sort(),
		);
		const stored = await server.database.db
			.selectFrom("push_subscriptions")
			.select(["p256dh", "auth"])
			.where("endpoint", "=", phone.endpoint)
			.execute();
		expect(stored).toEqual([{ p256dh: renewed.keys.p256dh, auth: renewed.keys.auth }]);

		const removed = await client.request(`${SUBSCRIPTIONS}/${laptopId}`, { method: "DELETE" });
		expect(removed.status).toBe(200);
		expect((await listDevices(client)).map((device) => device.id)).toEqual([secondId]);
		await expectErrorEnvelope(
			await client.request(`${SUBSCRIPTIONS}/${laptopId}`, { method: "DELETE" }),
			404,
			"NOT_FOUND",
		);
	});

	it("names a device without a label after the browser and system that turned it on", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request(SUBSCRIPTIONS, {
			method: "POST",
			headers: {
				"user-agent": "Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
			},
			json: publicSubscription(),
		});
		expect(response.status).toBe(201);
		expect((await listDevices(client)).map((device) => device.label)).toEqual([
			"Firefox on Android",
		]);
	});

	it("names it in the language of the browser that turns it on", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request(SUBSCRIPTIONS, {
			method: "POST",
			headers: {
				"user-agent": "Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
				"accept-language": "de-DE,de;q=0.9,en;q=0.5",
			},
			json: publicSubscription(),
		});
		expect(response.status).toBe(201);
		expect((await listDevices(client)).map((device) => device.label)).toEqual([
			"Firefox auf Android",
		]);
	});

	it("moves an endpoint to whoever subscribes it last: a shared browser", async () => {
		const first = await createTestUser(server);
		const second = await createTestUser(server);
		const shared = publicSubscription("shared");
		await subscribeDevice(first.client, shared);
		await subscribeDevice(second.client, shared);
		expect(await listDevices(first.client)).toEqual([]);
		expect((await listDevices(second.client)).map((device) => device.endpoint)).toEqual([
			shared.endpoint,
		]);
	});
});

describe.each(availableDatabaseKinds())("Web Push turned off (%s)", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			push: { ...DEFAULT_PUSH_SETTINGS, isEnabled: false },
		});
	});
	afterAll(async () => {
		await server?.close();
	});

	it("answers 404 saying so, and takes no subscription", async () => {
		const { client } = await createTestUser(server);
		const key = await client.request("/api/account/push/key");
		expect(await expectErrorEnvelope(key, 404, "NOT_FOUND")).toMatch(/WEB_PUSH=off/);
		const subscribe = await client.request(SUBSCRIPTIONS, {
			method: "POST",
			json: { endpoint: "https://push.example.com/x", keys: { p256dh: "a", auth: "b" } },
		});
		await expectErrorEnvelope(subscribe, 404, "NOT_FOUND");
		const rows = await server.database.db.selectFrom("push_subscriptions").selectAll().execute();
		expect(rows).toEqual([]);
	});
});
