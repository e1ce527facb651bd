import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { GenerationSchema } from "../../shared/generations/generations";
import { WebhookEndpointListSchema } from "../../shared/notifications/webhooks";
import { createLocalProvider } from "../providers/local/local-provider";
import { type ImageProvider, ProviderError } from "../providers/types";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { addEndpoint, readDeliveries, sendTestEvent, waitForSettled } from "../testing/webhook-kit";
import { type ReceiverAnswer, startWebhookReceiver } from "../testing/webhook-receiver";
import { sealWebhookSecret } from "./webhook-secret";

const FAILING_PROMPT = "a prompt the test provider refuses";

/** The local engine, except that it refuses FAILING_PROMPT: generations that complete and fail. */
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

const EventBodySchema = z.strictObject({
	type: z.string(),
	timestamp: z.iso.datetime(),
	data: z.unknown(),
});

describe.each(availableDatabaseKinds())("webhooks (%s)", (kind) => {
	let server: TestServer;
	const receivers: Array<{ close(): Promise<void> }> = [];

	/** A receiver closed after the file; `answer` as startWebhookReceiver takes it. */
	async function receiver(answer?: (n: number) => ReceiverAnswer) {
		const started = await startWebhookReceiver(answer);
		receivers.push(started);
		return started;
	}

	beforeAll(async () => {
		server = await createTestServer(kind, {
			provider: createTestProvider(),
			webhooks: {
				...DEFAULT_WEBHOOK_SETTINGS,
				// The receivers listen on 127.0.0.1, as WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows.
				allowPrivateTargets: true,
				retryDelaysMs: [50, 50, 50],
				timeoutMs: 1_000,
			},
		});
	});
	afterAll(async () => {
		await Promise.all(receivers.map((item) => item.close()));
		await server?.close();
	});

	describe("the routes", () => {
		it("add an endpoint, showing its whsec_ secret once, list it and delete it", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver();
			const created = await addEndpoint(client, target.url, ["generation.completed"]);

			expect(created.url).toBe(target.url);
			expect(created.events).toEqual(["generation.completed"]);
			expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
			expect(Buffer.from(created.secret.slice("whsec_".length), "base64").length).toBeGreaterThan(
				24,
			);

			const listed = await client.request("/api/account/webhooks");
			expect(listed.status).toBe(200);
			const text = await listed.text();
			expect(text).not.toContain(created.secret.slice("whsec_".length));
			expect(WebhookEndpointListSchema.parse(JSON.parse(text)).items).toEqual([
				{
					id: created.id,
					url: target.url,
					events: ["generation.completed"],
					createdAt: created.createdAt,
				},
			]);

			const deleted = await client.request(`/api/account/webhooks/${created.id}`, {
				method: "DELETE",
			});
			expect(deleted.status).toBe(200);
			const after = WebhookEndpointListSchema.parse(
				await (await client.request("/api/account/webhooks")).json(),
			);
			expect(after.items).toEqual([]);
		});

		it("keep the secret encrypted in the database", async () => {
			const { client } = await createTestUser(server);
			const created = await addEndpoint(client, (await receiver()).url);
			const row = await server.database.db
				.selectFrom("webhook_endpoints")
				.select("sealed_secret")
				.where("id", "=", created.id)
				.executeTakeFirstOrThrow();
			expect(row.sealed_secret).not.toContain(created.secret.slice("whsec_".length));
		});

		it("need a signed-in session", async () => {
			const { client } = await createTestUser(server);
			const created = await addEndpoint(client, (await receiver()).url);
			const stranger = new TestClient(server);
			for (const [path, method] of [
				["/api/account/webhooks", "GET"],
				["/api/account/webhooks", "POST"],
				[`/api/account/webhooks/${created.id}`, "DELETE"],
				[`/api/account/webhooks/${created.id}/test`, "POST"],
				[`/api/account/webhooks/${created.id}/deliveries`, "GET"],
			] as const) {
				const response = await stranger.request(path, {
					method,
					...(method === "POST" ? { json: { url: "https://example.com", events: [] } } : {}),
				});
				await expectErrorEnvelope(response, 401, "AUTH_ERROR");
			}
		});

		it("answer 404 for someone else's endpoint, as for one that does not exist", async () => {
			const owner = await createTestUser(server);
			const other = await createTestUser(server);
			const created = await addEndpoint(owner.client, (await receiver()).url);
			for (const id of [created.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
				for (const [path, method] of [
					[`/api/account/webhooks/${id}`, "DELETE"],
					[`/api/account/webhooks/${id}/test`, "POST"],
					[`/api/account/webhooks/${id}/deliveries`, "GET"],
				] as const) {
					const response = await other.client.request(path, { method });
					expect(response.status, `${method} ${path}`).toBe(404);
				}
			}
			const listed = WebhookEndpointListSchema.parse(
				await (await owner.client.request("/api/account/webhooks")).json(),
			);
			expect(listed.items.map((item) => item.id)).toEqual([created.id]);
		});

		it.each([
			[{ url: "https://example.com/hooks", events: [] }, "Choose at least one event."],
			[
				{ url: "https://example.com/hooks", events: ["generation.started"] },
				"Choose generation.completed, generation.failed or generation.deleted.",
			],
			[{ url: "", events: ["generation.completed"] }, "Give the endpoint's URL."],
			[{ events: ["generation.completed"] }, "Give the endpoint's URL."],
			[
				{ url: "not a url", events: ["generation.completed"] },
				"That is not a URL. It should look like https://example.com/hooks.",
			],
			[
				{ url: "ftp://127.0.0.1/hooks", events: ["generation.completed"] },
				"The URL must start with https://.",
			],
			[
				{ url: "https://user:pass@127.0.0.1/hooks", events: ["generation.completed"] },
				"The URL must not contain a user name or password.",
			],
			[
				{ url: `https://127.0.0.1/${"a".repeat(2000)}`, events: ["generation.completed"] },
				"The URL is longer than 2000 characters.",
			],
		])("refuse %j with a message saying why", async (body, message) => {
			const { client } = await createTestUser(server);
			const response = await client.request("/api/account/webhooks", {
				method: "POST",
				json: body,
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(message);
			const listed = WebhookEndpointListSchema.parse(
				await (await client.request("/api/account/webhooks")).json(),
			);
			expect(listed.items).toEqual([]);
		});

		it("allow at most ten endpoints an account", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver();
			for (let index = 0; index < 10; index++) await addEndpoint(client, `${target.url}/${index}`);
			const response = await client.request("/api/account/webhooks", {
				method: "POST",
				json: { url: target.url, events: ["generation.completed"] },
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
				"An account can have at most 10 webhook endpoints. Delete one first.",
			);
		});
		it("hold the ten endpoints an account may have when many are saved at the same instant", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver();
			const responses = await Promise.all(
				Array.from({ length: 16 }, (_, index) =>
					client.request("/api/account/webhooks", {
						method: "POST",
						json: { url: `${target.url}/${index}`, events: ["generation.completed"] },
					}),
				),
			);
			const statuses = responses.map((response) => response.status);
			expect(statuses.filter((status) => status === 201)).toHaveLength(10);
			for (const response of responses.filter((item) => item.status !== 201)) {
				expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
					"An account can have at most 10 webhook endpoints. Delete one first.",
				);
			}
			const listed = WebhookEndpointListSchema.parse(
				await (await client.request("/api/account/webhooks")).json(),
			);
			expect(listed.items).toHaveLength(10);
		});
	});

	describe("deliveries", () => {
		it("sign the test event so the Standard Webhooks library accepts it", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver();
			const created = await addEndpoint(client, target.url, ["generation.completed"]);

			const queued = await sendTestEvent(client, created.id);
			expect(queued).toMatchObject({ type: "webhook.test", status: "pending", attempts: 0 });
			const [delivery] = await waitForSettled(client, created.id);
			expect(delivery).toMatchObject({
				id: queued.id,
				type: "webhook.test",
				status: "delivered",
				attempts: 1,
				lastStatusCode: 200,
				lastError: null,
				nextAttemptAt: null,
			});

			const [request] = target.received();
			expect(request?.headers["webhook-id"]).toBe(queued.id);
			expect(request?.headers["content-type"]).toBe("application/json");
			const verified = new Webhook(created.secret).verify(
				request?.body ?? "",
				request?.headers ?? {},
			);
			const event = EventBodySchema.parse(verified);
			expect(event.type).toBe("webhook.test");
			expect(event.data).toMatchObject({ endpointId: created.id });

			// Another secret, or a body changed on the way, is refused.
			const other = await addEndpoint(client, target.url);
			expect(() =>
				new Webhook(other.secret).verify(request?.body ?? "", request?.headers ?? {}),
			).toThrow();
			expect(() =>
				new Webhook(created.secret).verify(
					(request?.body ?? "").replace("webhook.test", "webhook.tesT"),
					request?.headers ?? {},
				),
			).toThrow();
		});

		it("send generation.completed with the generation as the API shows it, and generation.failed to those who asked", async () => {
			const { client } = await createTestUser(server);
			const everything = await receiver();
			const completedOnly = await receiver();
			const all = await addEndpoint(client, everything.url);
			const completed = await addEndpoint(client, completedOnly.url, ["generation.completed"]);

			const made = await requestGeneration(client, "a lighthouse at dusk", "--ar 1:1");
			expect((await waitForFinish(client, made.pollingUrl)).status).toBe("completed");
			const failed = await requestGeneration(client, FAILING_PROMPT, "--ar 1:1");
			expect((await waitForFinish(client, failed.pollingUrl)).status).toBe("failed");

			await waitForSettled(client, all.id, 2);
			await waitForSettled(client, completed.id, 1);
			// A last look after the failed one settled: it never goes to the completed-only endpoint.
			expect(await readDeliveries(client, completed.id)).toHaveLength(1);

			const events = everything
				.received()
				.map((request) =>
					EventBodySchema.parse(new Webhook(all.secret).verify(request.body, request.headers)),
				);
			expect(events.map((event) => event.type).sort()).toEqual([
				"generation.completed",
				"generation.failed",
			]);
			const asApi = async (id: string) =>
				GenerationSchema.parse(await (await client.request(`/api/generations/${id}`)).json());
			const completedEvent = events.find((event) => event.type === "generation.completed");
			expect(GenerationSchema.parse(completedEvent?.data)).toEqual(await asApi(made.id));
			const failedEvent = events.find((event) => event.type === "generation.failed");
			expect(GenerationSchema.parse(failedEvent?.data)).toMatchObject({
				id: failed.id,
				status: "failed",
				error: "The test provider refused this prompt.",
			});

			const [onlyCompleted] = completedOnly.received();
			const event = EventBodySchema.parse(
				new Webhook(completed.secret).verify(
					onlyCompleted?.body ?? "",
					onlyCompleted?.headers ?? {},
				),
			);
			expect(event.type).toBe("generation.completed");
		});

		it("retry a failing receiver with the same webhook-id and body until it answers 2xx", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver((n) =>
				n < 3 ? { status: 500, body: "down" } : { status: 204 },
			);
			const created = await addEndpoint(client, target.url);

			const queued = await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 204 });
			const requests = target.received();
			expect(requests).toHaveLength(3);
			expect(new Set(requests.map((request) => request.headers["webhook-id"]))).toEqual(
				new Set([queued.id]),
			);
			expect(new Set(requests.map((request) => request.body)).size).toBe(1);
			for (const request of requests) {
				expect(() =>
					new Webhook(created.secret).verify(request.body, request.headers),
				).not.toThrow();
			}
		});

		it("give up after the last wait of the schedule, recording each attempt", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver(() => ({ status: 503 }));
			const created = await addEndpoint(client, target.url);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			// Three waits in this server's schedule: four attempts in all.
			expect(delivery).toMatchObject({ status: "failed", attempts: 4, lastStatusCode: 503 });
			expect(target.received()).toHaveLength(4);
		});

		it("follow no redirect: a 3xx is a failed attempt", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver((n) =>
				n === 1 ? { status: 302, headers: { location: "/elsewhere" } } : { status: 200 },
			);
			const created = await addEndpoint(client, target.url);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
			expect(target.received().map((request) => request.path)).toEqual(["/hooks", "/hooks"]);
		});

		it("stop waiting for a receiver that does not answer within the timeout", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver((n) => (n === 1 ? { hang: true } : { status: 200 }));
			const created = await addEndpoint(client, target.url);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
			const row = await server.database.db
				.selectFrom("webhook_deliveries")
				.select("attempts")
				.where("endpoint_id", "=", created.id)
				.executeTakeFirstOrThrow();
			expect(row.attempts).toBe(2);
		});

		it("record the timeout as the attempt's error", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver(() => ({ hang: true }));
			const created = await addEndpoint(client, target.url);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({
				status: "failed",
				attempts: 4,
				lastStatusCode: null,
				lastError: "No answer within 1 s.",
			});
		});

		it("keep at most 1 kB of a receiver's answer", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver(() => ({ status: 200, body: "x".repeat(1024 * 1024) }));
			const created = await addEndpoint(client, target.url);

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
			const row = await server.database.db
				.selectFrom("webhook_deliveries")
				.select("last_response")
				.where("endpoint_id", "=", created.id)
				.executeTakeFirstOrThrow();
			expect(row.last_response).toBe("x".repeat(1024));
		});

		it("fail at once, saying why, when the secret was sealed under another server secret", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver();
			const created = await addEndpoint(client, target.url);
			await server.database.db
				.updateTable("webhook_endpoints")
				.set({
					sealed_secret: sealWebhookSecret(
						created.secret,
						"an-earlier-server-secret-of-32-characters",
					),
				})
				.where("id", "=", created.id)
				.execute();

			await sendTestEvent(client, created.id);
			const [delivery] = await waitForSettled(client, created.id);

			expect(delivery).toMatchObject({
				status: "failed",
				attempts: 1,
				lastStatusCode: null,
				lastError:
					"The signing secret cannot be read: the server's secret has changed since the endpoint was added. Delete the endpoint and add it again.",
			});
			expect(target.received()).toEqual([]);
		});

		it("go nowhere once the endpoint is deleted, its log with it", async () => {
			const { client } = await createTestUser(server);
			const target = await receiver(() => ({ status: 500 }));
			const created = await addEndpoint(client, target.url);
			await sendTestEvent(client, created.id);
			await expect.poll(() => target.received().length, { timeout: 20_000 }).toBeGreaterThan(0);

			await client.request(`/api/account/webhooks/${created.id}`, { method: "DELETE" });
			const countAtDeletion = target.received().length;
			const rows = await server.database.db
				.selectFrom("webhook_deliveries")
				.select("id")
				.where("endpoint_id", "=", created.id)
				.execute();
			expect(rows).toEqual([]);

			// Once no attempt is queued or under way, at most the one already on its way was sent.
			await expect
				.poll(
					async () => {
						const { rows: waiting } = await server.database.pool.query(
							`select count(*)::int as count from pgboss.job
							where name = 'webhook-delivery' and state in ('created', 'retry', 'active')`,
						);
						return (waiting[0] as { count: number }).count;
					},
					{ timeout: 20_000 },
				)
				.toBe(0);
			expect(target.received().length).toBeLessThanOrEqual(countAtDeletion + 1);
		});
	});
});
