import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { addEndpoint, pressTestEvent, readDeliveries, sendTestEvent } from "../testing/webhook-kit";
import { type ReceiverAnswer, startWebhookReceiver } from "../testing/webhook-receiver";
import { maintainWebhooks, pruneSettledDeliveries } from "./webhook-maintenance";

/** One attempt's timeout on this file's server. */
const TIMEOUT_MS = 2_000;

describe.each(availableDatabaseKinds())("webhook limits (%s)", (kind) => {
	let server: TestServer;
	const receivers: Array<{ close(): Promise<void> }> = [];

	async function receiver(answer?: (n: number) => ReceiverAnswer) {
		const started = await startWebhookReceiver(answer);
		receivers.push(started);
		return started;
	}

	beforeAll(async () => {
		server = await createTestServer(kind, {
			// Two attempts at once in this process, as GENERATION_CONCURRENCY=2 would have it.
			concurrency: 2,
			webhooks: {
				...DEFAULT_WEBHOOK_SETTINGS,
				allowPrivateTargets: true,
				// A failed attempt waits a minute: its delivery stays pending through the test.
				retryDelaysMs: [60_000],
				timeoutMs: TIMEOUT_MS,
				maxPendingDeliveries: 4,
			},
		});
	});
	afterAll(async () => {
		await Promise.all(receivers.map((item) => item.close()));
		await server?.close();
	});

	it("answer a sixth test event within a minute 429 with Retry-After, other endpoints unaffected", async () => {
		const { client } = await createTestUser(server);
		const target = await receiver();
		const endpoint = await addEndpoint(client, target.url);
		const other = await addEndpoint(client, `${target.url}/other`);
		for (let press = 0; press < 5; press++) await sendTestEvent(client, endpoint.id);

		const refused = await pressTestEvent(client, endpoint.id);
		const message = await expectErrorEnvelope(refused, 429, "RATE_LIMITED");
		expect(message).toMatch(
			/^An endpoint can be sent at most 5 test events a minute\. Please wait \d+ seconds\.$/,
		);
		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect(await readDeliveries(client, endpoint.id)).toHaveLength(5);

		await sendTestEvent(client, other.id);
	});

	it("record an event beyond the endpoint's waiting deliveries as not sent, and send nothing for it", async () => {
		const { client } = await createTestUser(server);
		const target = await receiver(() => ({ status: 500 }));
		const endpoint = await addEndpoint(client, target.url);
		for (let press = 0; press < 4; press++) await sendTestEvent(client, endpoint.id);

		const dropped = await sendTestEvent(client, endpoint.id);
		expect(dropped).toMatchObject({
			status: "failed",
			attempts: 0,
			lastError: "Not sent: 4 deliveries to this endpoint were already waiting.",
			nextAttemptAt: null,
		});
		// The four waiting ones are each tried once (their retries wait a minute); the fifth never.
		await expect.poll(() => target.received().length, { timeout: 20_000 }).toBe(4);
		const deliveries = await readDeliveries(client, endpoint.id);
		expect(deliveries.filter((item) => item.status === "pending")).toHaveLength(4);
		expect(target.received().map((request) => request.headers["webhook-id"])).not.toContain(
			dropped.id,
		);
	});

	it("send one attempt at a time to a slow endpoint, so another person's delivery arrives within one attempt's timeout", async () => {
		const slow = await createTestUser(server);
		const hanging = await receiver(() => ({ hang: true }));
		const slowEndpoint = await addEndpoint(slow.client, hanging.url);
		for (let press = 0; press < 4; press++) await sendTestEvent(slow.client, slowEndpoint.id);
		await expect.poll(() => hanging.received().length, { timeout: 10_000 }).toBe(1);

		const other = await createTestUser(server);
		const quick = await receiver();
		const quickEndpoint = await addEndpoint(other.client, quick.url);
		const sentAt = Date.now();
		await sendTestEvent(other.client, quickEndpoint.id);
		await expect.poll(() => quick.received().length, { timeout: 10_000 }).toBe(1);
		expect(Date.now() - sentAt).toBeLessThan(TIMEOUT_MS);

		// The slow endpoint's four attempts, one after the other: each waited out the last one's timeout.
		await expect.poll(() => hanging.received().length, { timeout: 30_000 }).toBe(4);
		await expect
			.poll(
				async () =>
					(await readDeliveries(slow.client, slowEndpoint.id)).filter(
						(item) => item.lastAttemptAt !== null,
					).length,
				{ timeout: 10_000 },
			)
			.toBe(4);
		const endedAt = (await readDeliveries(slow.client, slowEndpoint.id))
			.map((item) => Date.parse(item.lastAttemptAt ?? ""))
			.sort((a, b) => a - b);
		for (let index = 1; index < endedAt.length; index++) {
			expect((endedAt[index] ?? 0) - (endedAt[index - 1] ?? 0)).toBeGreaterThan(TIMEOUT_MS * 0.75);
		}
	}, 60_000);

	it("queue again, in the hourly upkeep, a delivery left waiting by an attempt that died holding its endpoint's turn", async () => {
		const { client } = await createTestUser(server);
		const target = await receiver();
		const endpoint = await addEndpoint(client, target.url);
		// An attempt whose server died mid-send, and whose job pg-boss gave up on: its turn runs out
		// soon, and nobody is left to hand it on.
		await server.database.db
			.insertInto("webhook_endpoint_turns")
			.values({
				endpoint_id: endpoint.id,
				holder: "a job that died",
				lease_until: sql<Date>`now() + interval '1 second'`,
			})
			.execute();
		const waiting = await sendTestEvent(client, endpoint.id);
		await new Promise((resolve) => setTimeout(resolve, 2_500));
		expect(target.received()).toEqual([]);
		expect(
			(await maintainWebhooks({ db: server.database.db, queue: server.webhookQueue })).restarted,
		).toBe(0);

		// Overdue by more than the upkeep's quarter of an hour.
		await server.database.db
			.updateTable("webhook_deliveries")
			.set({ next_attempt_at: sql<Date>`now() - interval '16 minutes'` })
			.where("id", "=", waiting.id)
			.execute();
		const round = await maintainWebhooks({ db: server.database.db, queue: server.webhookQueue });
		expect(round.restarted).toBe(1);
		await expect.poll(() => target.received().length, { timeout: 20_000 }).toBe(1);
		expect(target.received()[0]?.headers["webhook-id"]).toBe(waiting.id);
	});

	it("prune delivered and failed deliveries after 30 days, keeping newer ones and those waiting", async () => {
		const { client } = await createTestUser(server);
		const target = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
		const endpoint = await addEndpoint(client, target.url);
		const waiting = await sendTestEvent(client, endpoint.id);
		await expect.poll(() => target.received().length, { timeout: 20_000 }).toBe(1);
		const old = await sendTestEvent(client, endpoint.id);
		const recent = await sendTestEvent(client, endpoint.id);
		await expect
			.poll(
				async () =>
					(await readDeliveries(client, endpoint.id)).filter((item) => item.status === "delivered")
						.length,
				{ timeout: 20_000 },
			)
			.toBe(2);
		const age = async (id: string, days: number) =>
			server.database.db
				.updateTable("webhook_deliveries")
				.set({ created_at: sql<Date>`now() - make_interval(days => ${days})` })
				.where("id", "=", id)
				.execute();
		await age(old.id, 31);
		await age(recent.id, 29);
		await age(waiting.id, 31);

		expect(await pruneSettledDeliveries(server.database.db)).toBeGreaterThanOrEqual(1);

		const left = await readDeliveries(client, endpoint.id);
		expect(left.map((item) => item.id).sort()).toEqual([waiting.id, recent.id].sort());
		expect(left.find((item) => item.id === waiting.id)?.status).toBe("pending");
	});
});
