import { expect } from "vitest";
import { type PushDevice, PushDeviceListSchema, SubscribedPushSchema } from "../../shared/push";
import type { TestPushSubscription } from "./push-service";
import type { TestClient } from "./test-server";

/** Turns this device's notifications on: its subscription sent as a browser sends it (201). */
export async function subscribeDevice(
	client: TestClient,
	subscription: Pick<TestPushSubscription, "endpoint" | "keys">,
	label = "Firefox on Linux",
): Promise<string> {
	const response = await client.request("/api/account/push/subscriptions", {
		method: "POST",
		json: { endpoint: subscription.endpoint, keys: subscription.keys, label },
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
