import { expect } from "vitest";
import {
	type PushDevice,
	PushDeviceListSchema,
	SubscribedPushSchema,
} from "../../shared/notifications/push";
import type { TestPushSubscription } from "./push-service";
import type { TestClient } from "./test-server";

/** What can run a query: a pool, or a client of the database a server process uses. */
type Queryable = { query(text: string): Promise<{ rows: unknown[] }> };

/** Turns this device's notifications on: its subscription sent as a browser sends it (201). */
export async function subscribeDevice(
	client: TestClient,
	subscription: Pick<TestPushSubscription, "endpoint" | "keys">,
	label = "Firefox on Linux",
	headers?: Record<string, string>,
): Promise<string> {
	const response = await client.request("/api/account/push/subscriptions", {
		method: "POST",
		json: { endpoint: subscription.endpoint, keys: subscription.keys, label },
		...(headers ? { headers } : {}),
	});
	expect(response.status).toBe(201);
	return SubscribedPushSchema.parse(await response.json()).id;
}

/** The person's devices, as the account page lists them. */
export async function listDevices(client: TestClient): Promise<PushDevice[]> {
	const response = await client.request("/api/account/push/subscriptions");
	expect(response.status).toBe(200);
	return PushDeviceListSchema.parse(await response.json()).items;
}

/**
 * Waits until no push attempt is queued or under way (a retry waiting its back-off counts as
 * queued): from then on nothing more is pushed unless something new asks, so what was received is
 * all there will be.
 */
export async function waitForPushesSettled(database: Queryable): Promise<void> {
	await expect
		.poll(
			async () => {
				const { rows } = await database.query(
					`select count(*)::int as count from pgboss.job
					where name = 'push-delivery' and state in ('created', 'retry', 'active')`,
				);
				return (rows[0] as { count: number }).count;
			},
			{ timeout: 20_000, interval: 50 },
		)
		.toBe(0);
}
