import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CreateGenerationResponseSchema } from "../../shared/generations/generations";
import {
	CreatedWebhookSchema,
	QueuedWebhookDeliverySchema,
	type WebhookDelivery,
	WebhookDeliveryListSchema,
} from "../../shared/notifications/webhooks";
import { findFreePort } from "../testing/postgres-cluster";
import {
	type ServerProcess,
	signUpOn,
	spawnServer,
	startServer,
	waitFor,
	waitUntilHealthy,
} from "../testing/server-process";
import { availableDatabaseKinds, createEmptyPostgresDatabase } from "../testing/test-database";
import { startWebhookReceiver } from "../testing/webhook-receiver";

const SECRET = "webhook-processes-secret-at-least-32-characters";

/** What a server process needs to send webhooks to a receiver on 127.0.0.1. */
const WEBHOOK_ENV = {
	WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
	AUTH_RATE_LIMIT_ENABLED: "false",
	LOCAL_ENGINE_DELAY_MS: "0",
	LOG_LEVEL: "info",
};

type SessionHeaders = Awaited<ReturnType<typeof signUpOn>>;

async function addEndpoint(origin: string, headers: SessionHeaders, url: string) {
	const response = await fetch(`${origin}/api/account/webhooks`, {
		method: "POST",
		headers,
		body: JSON.stringify({ url, events: ["generation.completed", "generation.failed"] }),
	});
	expect(response.status).toBe(201);
	return CreatedWebhookSchema.parse(await response.json());
}

async function readDeliveries(
	origin: string,
	headers: SessionHeaders,
	endpointId: string,
): Promise<WebhookDelivery[]> {
	const response = await fetch(`${origin}/api/account/webhooks/${endpointId}/deliveries`, {
		headers,
	});
	return WebhookDeliveryListSchema.parse(await response.json()).items;
}

describe("webhooks across server processes", () => {
	beforeAll(async () => {});
	afterAll(async () => {});

	describe.each(availableDatabaseKinds())("on %s", (kind) => {
		it("a retry waiting while the server is SIGKILLed is sent by the restarted server, with the same webhook-id", async () => {
			const dataDir = await mkdtemp(path.join(".tmp", "webhook-restart-"));
			const database = kind === "postgres" ? await createEmptyPostgresDatabase() : undefined;
			const receiver = await startWebhookReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
			const port = String(await findFreePort());
			const start = async (): Promise<ServerProcess> => {
				const server = spawnServer(inject("serverEntry"), {
					PORT: port,
					BASE_URL: `http://127.0.0.1:${port}`,
					DATA_DIR: dataDir,
					BETTER_AUTH_SECRET: SECRET,
					// Long enough for the kill and the restart to fall between the two attempts.
					WEBHOOK_RETRY_DELAYS_SECONDS: "6",
					...WEBHOOK_ENV,
					...(database ? { DATABASE_URL: database.url } : {}),
				});
				await waitUntilHealthy(server);
				return server;
			};
			let server = await start();
			try {
				const headers = await signUpOn(server.origin, `restart-${kind}@example.com`);
				const endpoint = await addEndpoint(server.origin, headers, receiver.url);
				const sent = await fetch(`${server.origin}/api/account/webhooks/${endpoint.id}/test`, {
					method: "POST",
					headers,
				});
				const queued = QueuedWebhookDeliverySchema.parse(await sent.json());

				// The first attempt failed and was recorded; the second waits in the queue.
				await waitFor("the first attempt to be recorded", async () => {
					const [delivery] = await readDeliveries(server.origin, headers, endpoint.id);
					return delivery?.attempts === 1 ? delivery : undefined;
				});
				await server.kill("SIGKILL");
				expect(receiver.received()).toHaveLength(1);

				server = await start();
				const delivered = await waitFor("the retry to be delivered", async () => {
					const [delivery] = await readDeliveries(server.origin, headers, endpoint.id);
					return delivery?.status === "delivered" ? delivery : undefined;
				});

				expect(delivered).toMatchObject({ id: queued.id, attempts: 2, lastStatusCode: 200 });
				const requests = receiver.received();
				expect(requests.map((request) => request.headers["webhook-id"])).toEqual([
					queued.id,
					queued.id,
				]);
				for (const request of requests) {
					expect(() =>
						new Webhook(endpoint.secret).verify(request.body, request.headers),
					).not.toThrow();
				}
			} finally {
				await server.kill();
				await receiver.close();
				await database?.drop();
				await rm(dataDir, { recursive: true, force: true });
			}
		}, 120_000);
	});

	describe.each(availableDatabaseKinds())("a slow receiver on %s", (kind) => {
		it("holds one of the server's two delivery slots: another person's delivery still arrives within one attempt's timeout (10 s)", async () => {
			const dataDir = await mkdtemp(path.join(".tmp", "webhook-fair-"));
			const database = kind === "postgres" ? await createEmptyPostgresDatabase() : undefined;
			const hanging = await startWebhookReceiver(() => ({ hang: true }));
			const quick = await startWebhookReceiver();
			let server: ServerProcess | undefined;
			try {
				server = await startServer(inject("serverEntry"), {
					DATA_DIR: dataDir,
					BETTER_AUTH_SECRET: SECRET,
					GENERATION_CONCURRENCY: "2",
					...WEBHOOK_ENV,
					...(database ? { DATABASE_URL: database.url } : {}),
				});
				const origin = server.origin;
				const slow = await signUpOn(origin, `slow-${kind}@example.com`);
				const slowEndpoint = await addEndpoint(origin, slow, hanging.url);
				for (let press = 0; press < 4; press++) {
					const sent = await fetch(`${origin}/api/account/webhooks/${slowEndpoint.id}/test`, {
						method: "POST",
						headers: slow,
					});
					expect(sent.status).toBe(202);
				}
				await waitFor("the slow receiver to be reached", async () =>
					hanging.received().length > 0 ? true : undefined,
				);

				const other = await signUpOn(origin, `other-${kind}@example.com`);
				const otherEndpoint = await addEndpoint(origin, other, quick.url);
				const sentAt = Date.now();
				const sent = await fetch(`${origin}/api/account/webhooks/${otherEndpoint.id}/test`, {
					method: "POST",
					headers: other,
				});
				expect(sent.status).toBe(202);
				await waitFor(
					"the other person's delivery",
					async () => (quick.received().length > 0 ? true : undefined),
					30_000,
				);
				expect(Date.now() - sentAt).toBeLessThan(10_000);
				// Meanwhile the slow endpoint had one attempt under way, never two.
				expect(hanging.received()).toHaveLength(1);
			} finally {
				await server?.kill();
				await hanging.close();
				await quick.close();
				await database?.drop();
				await rm(dataDir, { recursive: true, force: true });
			}
		}, 120_000);
	});

	describe.skipIf(!inject("postgresUrl"))("two processes on one PostgreSQL", () => {
		it("send each event once, whichever process finishes the generation or takes the attempt", async () => {
			const database = await createEmptyPostgresDatabase();
			const dataDir = await mkdtemp(path.join(".tmp", "webhook-replicas-"));
			const receiver = await startWebhookReceiver((n) => ({ status: n % 3 === 1 ? 503 : 200 }));
			let replicas: ServerProcess[] = [];
			try {
				const env = {
					DATABASE_URL: database.url,
					DATA_DIR: dataDir,
					BETTER_AUTH_SECRET: SECRET,
					WEBHOOK_RETRY_DELAYS_SECONDS: "0.2,0.2,0.2",
					...WEBHOOK_ENV,
				};
				// One after the other: the first creates the tables (replicas starting together are
				// covered by several-processes.test.ts).
				const first = await startServer(inject("serverEntry"), env);
				replicas = [first, await startServer(inject("serverEntry"), env)];
				const headers = await signUpOn(first.origin, "replicas@example.com", first.origin);
				const endpoint = await addEndpoint(first.origin, headers, receiver.url);

				const generationIds: string[] = [];
				for (let index = 0; index < 6; index++) {
					const replica = replicas[index % 2] as ServerProcess;
					// Each replica accepts the session: they share the database and the secret.
					const response = await fetch(`${replica.origin}/api/generations`, {
						method: "POST",
						headers: { ...headers, origin: replica.origin },
						body: JSON.stringify({ prompt: `replica webhook ${index}`, aspectRatio: "--ar 1:1" }),
					});
					expect(response.status).toBe(201);
					const created = CreateGenerationResponseSchema.parse(await response.json());
					if (!created.success) throw new Error(created.error.message);
					generationIds.push(created.id);
					// Never more than the three a person may have running.
					if (index % 3 === 2) {
						await waitFor("the generations to finish", async () => {
							const deliveries = await readDeliveries(first.origin, headers, endpoint.id);
							return deliveries.length === generationIds.length ? true : undefined;
						});
					}
				}

				const deliveries = await waitFor("every delivery to be delivered", async () => {
					const all = await readDeliveries(first.origin, headers, endpoint.id);
					return all.length === 6 && all.every((item) => item.status === "delivered")
						? all
						: undefined;
				});

				// Each event: one delivery, and exactly one 2xx answer for its webhook-id.
				const requests = receiver.received();
				const delivered = new Map<string, number>();
				for (const delivery of deliveries) delivered.set(delivery.id, 0);
				const generationsSeen = new Set<string>();
				for (const [index, request] of requests.entries()) {
					const id = request.headers["webhook-id"] ?? "";
					expect(delivered.has(id)).toBe(true);
					const event = new Webhook(endpoint.secret).verify(request.body, request.headers) as {
						data: { id: string };
					};
					generationsSeen.add(event.data.id);
					// The receiver answered 200 to every request but the first of each three.
					if ((index + 1) % 3 !== 1) delivered.set(id, (delivered.get(id) ?? 0) + 1);
				}
				expect([...delivered.values()]).toEqual([1, 1, 1, 1, 1, 1]);
				expect([...generationsSeen].sort()).toEqual([...generationIds].sort());
				const attempts = deliveries.reduce((sum, delivery) => sum + delivery.attempts, 0);
				expect(requests).toHaveLength(attempts);
			} finally {
				await Promise.all(replicas.map((replica) => replica.kill()));
				await receiver.close();
				await database.drop();
				await rm(dataDir, { recursive: true, force: true });
			}
		}, 180_000);
	});
});
