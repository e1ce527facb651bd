import { expect } from "vitest";
import { CreatedApiTokenSchema } from "../../shared/account/api-tokens";
import { WebhookEndpointListSchema } from "../../shared/notifications/webhooks";
import type { TestClient, TestServer } from "./test-server";

/**
 * What someone holding an account can leave behind to keep acting for it: an API token that never
 * expires and a webhook endpoint. Made through the real routes, from a signed-in client.
 */
export async function makeHoldings(client: TestClient) {
	const token = await client.request("/api/account/tokens", {
		method: "POST",
		json: { name: "kept", scopes: ["read"], expiresInDays: null },
	});
	expect(token.status).toBe(201);
	const webhook = await client.request("/api/account/webhooks", {
		method: "POST",
		json: { url: "https://hooks.example.com/atelier", events: ["generation.completed"] },
	});
	expect(webhook.status).toBe(201);
	return { token: CreatedApiTokenSchema.parse(await token.json()).token };
}

/** The status a request with only this API token gets: 200 while it works, 401 once it ended. */
export async function tokenStatus(server: Pick<TestServer, "app">, token: string) {
	const response = await server.app.request("/api/generations", {
		headers: { authorization: `Bearer ${token}` },
	});
	return response.status;
}

/** The webhook endpoints the account has now, as its owner sees them. */
export async function countWebhooks(client: TestClient): Promise<number> {
	const response = await client.request("/api/account/webhooks");
	expect(response.status).toBe(200);
	return WebhookEndpointListSchema.parse(await response.json()).items.length;
}
