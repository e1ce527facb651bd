import { expect } from "vitest";
import {
	CreatedWebhookSchema,
	QueuedWebhookDeliverySchema,
	type WebhookDelivery,
	WebhookDeliveryListSchema,
} from "../../shared/notifications/webhooks";
import type { TestClient } from "./test-server";

/** Adds an endpoint through the API (201 expected); answers it with its secret. */
export async function addEndpoint(
	client: TestClient,
	url: string,
	events: string[] = ["generation.completed", "generation.failed"],
) {
	const response = await client.request("/api/account/webhooks", {
		method: "POST",
		json: { url, events },
	});
	expect(response.status).toBe(201);
	return CreatedWebhookSchema.parse(await response.json());
}

/** The endpoint's delivery log, as its owner reads it. */
export async function readDeliveries(
	client: TestClient,
	endpointId: string,
): Promise<WebhookDelivery[]> {
	const response = await client.request(`/api/account/webhooks/${endpointId}/deliveries`);
	expect(response.status).toBe(200);
	return WebhookDeliveryListSchema.parse(await response.json()).items;
}

/** Polls the delivery log until every delivery is settled (delivered or failed). */
export async function waitForSettled(
	client: TestClient,
	endpointId: string,
	count = 1,
): Promise<WebhookDelivery[]> {
	let deliveries: WebhookDelivery[] = [];
	await expect
		.poll(
			async () => {
				deliveries = await readDeliveries(client, endpointId);
				return deliveries.length >= count && deliveries.every((item) => item.status !== "pending");
			},
			{ timeout: 20_000, interval: 50 },
		)
		.toBe(true);
	return deliveries;
}

/** Presses "Send test event"; the answer as it comes. */
export function pressTestEvent(client: TestClient, endpointId: string): Promise<Response> {
	return client.request(`/api/account/webhooks/${endpointId}/test`, { method: "POST" });
}

/** Presses "Send test event" (202 expected); answers the queued delivery. */
export async function sendTestEvent(
	client: TestClient,
	endpointId: string,
): Promise<WebhookDelivery> {
	const response = await pressTestEvent(client, endpointId);
	expect(response.status).toBe(202);
	return QueuedWebhookDeliverySchema.parse(await response.json());
}
