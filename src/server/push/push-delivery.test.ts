// Web Push end to end: a finished generation, or "Send a test", reaches the stand-in push service
// signed (VAPID) and encrypted (aes128gcm) for each of the person's devices, once; 404 and 410
// remove the subscription, 429 and 5xx are tried again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PushNotificationSchema } from "../../shared/notifications/push";
import { createLocalProvider } from "../providers/local/local-provider";
import { type ImageProvider, ProviderError } from "../providers/types";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { listDevices, subscribeDevice, waitForPushesSettled } from "../testing/push-kit";
import { type PushServiceAnswer, startPushService } from "../testing/push-service";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { TEST_PUSHES_PER_MINUTE } from "./push-deliveries";
import { DEFAULT_PUSH_SETTINGS } from "./push-settings";

const FAILING_PROMPT = "a prompt the test provider refuses";

function createTestProvider(): ImageProvider {
	const local = createLocalProvider({ delayMs: 0 });
	return {
		...local,
		async start(input, options) {
			if (input.prompt === FAILING_PROMPT) {
				throw new ProviderError("refused by the test provider", {
					retryable: false,
					userMessage: "The test provider refused this prompt.",
				});
			}
			return local.start(input, options);
		},
	};
}

type PushService = Awaited<ReturnType<typeof startPushService>>;

describe.each(availableDatabaseKinds())("Web Push delivery (%s)", (kind) => {
	let server: TestServer;
	let publicKey: string;
	// Each test's endpoints answer as the test plans; anything else is answered 201.
	const plans = new Map<string, (n: number) => PushServiceAnswer>();
	let service: PushService;

	beforeAll(async () => {
		service = await startPushService((n, endpoint) => plans.get(endpoint)?.(n) ?? { status: 201 });
		server = await createTestServer(kind, {
			provider: createTestProvider(),
			push: {
				...DEFAULT_PUSH_SETTINGS,
				// The stand-in listens on 127.0.0.1, as WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows.
				allowPrivateTargets: true,
				retryDelaysMs: [50, 50, 50],
				timeoutMs: 2_000,
			},
		});
		const { client } = await createTestUser(server);
		publicKey = (
			(await (await client.request("/api/account/push/key")).json()) as {
				publicKey: string;
			}
		).publicKey;
	});
	afterAll(async () => {
		await server?.close();
		await service?.close();
	});

	function receivedAt(endpoint: string) {
		return service.received().filter((push) => push.endpoint === endpoint);
	}

	async function waitForPushes(endpoint: string, count: number) {
		await expect.poll(() => receivedAt(endpoint).length, { timeout: 15_000 }).toBe(count);
		return receivedAt(endpoint);
	}

	it("sends a test to the device: signed for its origin, encrypted for its keys", async () => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		const id = await subscribeDevice(client, device);
		const response = await client.request(`/api/account/push/subscriptions/${id}/test`, {
			method: "POST",
		});
		expect(response.status).toBe(202);

		const [push] = await waitForPushes(device.endpoint, 1);
		expect(PushNotificationSchema.parse(push?.message)).toMatchObject({
			title: "Atelier",
			body: "Notifications arrive on this device, even with Atelier closed.",
			url: "/account",
		});
		expect(push?.vapidKey).toBe(publicKey);
		expect(push?.claims.aud).toBe(service.origin);
		expect(push?.claims.sub).toBe("mailto:admin@example.com");
		expect(push?.ttl).toBe(12 * 3600);
		expect(service.refused()).toEqual([]);
		await expect
			.poll(async () => (await listDevices(client))[0]?.lastNotifiedAt ?? null)
			.not.toBeNull();
	});

	it("limits tests to a few a minute per device", async () => {
		const { client } = await createTestUser(server);
		const id = await subscribeDevice(client, service.subscribe());
		const press = () =>
			client.request(`/api/account/push/subscriptions/${id}/test`, { method: "POST" });
		for (let press_ = 0; press_ < TEST_PUSHES_PER_MINUTE; press_ += 1) {
			expect((await press()).status).toBe(202);
		}
		const refused = await press();
		expect(await expectErrorEnvelope(refused, 429, "RATE_LIMITED")).toMatch(/at most 5 tests/);
	});

	it("pushes a finished generation once to each of the person's devices, to nobody else", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const phone = service.subscribe();
		const laptop = service.subscribe();
		const stranger = service.subscribe();
		await subscribeDevice(person.client, phone, "Chrome on Android");
		await subscribeDevice(person.client, laptop, "Firefox on Linux");
		await subscribeDevice(other.client, stranger);

		const prompt = `A lighthouse at dusk, ${"with gulls circling ".repeat(20)}`;
		const created = await requestGeneration(person.client, prompt, "--ar 1:1", { count: 1 });
		expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
		const generation = await readGeneration(person.client, created.id);

		for (const device of [phone, laptop]) {
			const [push] = await waitForPushes(device.endpoint, 1);
			const notification = PushNotificationSchema.parse(push?.message);
			expect(notification.title).toBe("Your images are ready");
			expect(notification.tag).toBe(`generation-${created.id}`);
			expect(notification.url).toBe(`/generations?generation=${created.id}`);
			expect(notification.body.startsWith("A lighthouse at dusk, with gulls")).toBe(true);
			expect(notification.body.length).toBeLessThanOrEqual(120);
			expect(notification.body.endsWith("…")).toBe(true);
			expect(notification.image).toBe(generation.images[0]?.thumbnailUrl);
			expect(push?.bodyBytes).toBeLessThan(4096);
		}
		// Nothing more comes: once per device.
		await waitForPushesSettled(server.database.pool);
		expect(receivedAt(phone.endpoint)).toHaveLength(1);
		expect(receivedAt(laptop.endpoint)).toHaveLength(1);
		expect(service.requestsFor(stranger.endpoint)).toBe(0);
	});

	it("pushes a failed generation as failed, without a thumbnail", async () => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		await subscribeDevice(client, device);
		const created = await requestGeneration(client, FAILING_PROMPT, "--ar 1:1");
		expect((await waitForFinish(client, created.pollingUrl)).status).toBe("failed");
		const [push] = await waitForPushes(device.endpoint, 1);
		const notification = PushNotificationSchema.parse(push?.message);
		expect(notification).toEqual({
			title: "Your generation failed",
			body: FAILING_PROMPT,
			tag: `generation-${created.id}`,
			url: `/generations?generation=${created.id}`,
		});
	});

	it("pushes a finished generation in the account's language, else in the language of the browser that turned the device on", async () => {
		const german = await createTestUser(server);
		const chosen = await german.client.request("/api/account/settings", {
			method: "PATCH",
			json: { language: "de" },
		});
		expect(chosen.status).toBe(200);
		const browserFollower = await createTestUser(server);
		const [germanDevice, otherDevice, germanBrowser] = [
			service.subscribe(),
			service.subscribe(),
			service.subscribe(),
		];
		// The account chose German: its pushes are German whatever its browsers ask for.
		await subscribeDevice(german.client, germanDevice, "Firefox on Linux", {
			"accept-language": "en-US,en;q=0.9",
		});
		await subscribeDevice(browserFollower.client, otherDevice);
		await subscribeDevice(browserFollower.client, germanBrowser, "Firefox on Linux", {
			"accept-language": "de-DE,de;q=0.9",
		});

		const done = await requestGeneration(german.client, "A harbour at dawn", "--ar 1:1");
		expect((await waitForFinish(german.client, done.pollingUrl)).status).toBe("completed");
		const failed = await requestGeneration(german.client, FAILING_PROMPT, "--ar 1:1");
		expect((await waitForFinish(german.client, failed.pollingUrl)).status).toBe("failed");
		const titles = (await waitForPushes(germanDevice.endpoint, 2)).map(
			(push) => PushNotificationSchema.parse(push.message).title,
		);
		expect(titles.sort()).toEqual([
			"Deine Bilder sind fertig",
			"Deine Generierung ist fehlgeschlagen",
		]);

		// No browser asks when the server pushes: an account following the browser's gets each
		// device's push in the language of the browser that turned it on.
		const other = await requestGeneration(browserFollower.client, "A harbour at dawn", "--ar 1:1");
		expect((await waitForFinish(browserFollower.client, other.pollingUrl)).status).toBe(
			"completed",
		);
		const [push] = await waitForPushes(otherDevice.endpoint, 1);
		expect(PushNotificationSchema.parse(push?.message).title).toBe("Your images are ready");
		const [germanPush] = await waitForPushes(germanBrowser.endpoint, 1);
		expect(PushNotificationSchema.parse(germanPush?.message).title).toBe(
			"Deine Bilder sind fertig",
		);
	});

	it("sends a test in the language of the page that asked for it", async () => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		const id = await subscribeDevice(client, device);
		const response = await client.request(`/api/account/push/subscriptions/${id}/test`, {
			method: "POST",
			headers: { "accept-language": "de-DE,de;q=0.9" },
		});
		expect(response.status).toBe(202);
		const [push] = await waitForPushes(device.endpoint, 1);
		expect(PushNotificationSchema.parse(push?.message).body).toBe(
			"Benachrichtigungen kommen auf diesem Gerät an, auch wenn Atelier geschlossen ist.",
		);
	});

	it.each([410, 404])("forgets a subscription its push service answers %i for", async (status) => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		plans.set(device.endpoint, (n) => ({ status: n === 1 ? 201 : status }));
		const id = await subscribeDevice(client, device);
		const test = () =>
			client.request(`/api/account/push/subscriptions/${id}/test`, { method: "POST" });

		expect((await test()).status).toBe(202);
		await waitForPushes(device.endpoint, 1);
		expect((await listDevices(client)).map((item) => item.id)).toEqual([id]);

		expect((await test()).status).toBe(202);
		await expect.poll(async () => (await listDevices(client)).length, { timeout: 15_000 }).toBe(0);
		expect(service.requestsFor(device.endpoint)).toBe(2);
		await expectErrorEnvelope(await test(), 404, "NOT_FOUND");
	});

	it.each([429, 503])("tries again with back-off after %i, and delivers once", async (status) => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		plans.set(device.endpoint, (n) => ({ status: n <= 2 ? status : 201 }));
		const id = await subscribeDevice(client, device);
		expect(
			(await client.request(`/api/account/push/subscriptions/${id}/test`, { method: "POST" }))
				.status,
		).toBe(202);
		await waitForPushes(device.endpoint, 1);
		expect(service.requestsFor(device.endpoint)).toBe(3);
		expect((await listDevices(client)).map((item) => item.id)).toEqual([id]);
	});

	it("gives up after the last back-off, keeping the subscription", async () => {
		const { client } = await createTestUser(server);
		const device = service.subscribe();
		plans.set(device.endpoint, () => ({ status: 500 }));
		const id = await subscribeDevice(client, device);
		await client.request(`/api/account/push/subscriptions/${id}/test`, { method: "POST" });
		// The first attempt and one after each of the three waits.
		await expect.poll(() => service.requestsFor(device.endpoint), { timeout: 15_000 }).toBe(4);
		await waitForPushesSettled(server.database.pool);
		expect(service.requestsFor(device.endpoint)).toBe(4);
		expect((await listDevices(client)).map((item) => item.id)).toEqual([id]);
	});
});
