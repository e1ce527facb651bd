import { HttpResponse, http } from "msw";
import { ERRORS, errorBody } from "../../../shared/core/errors";
import {
	CreateWebhookRequestSchema,
	type WebhookDelivery,
	type WebhookEndpoint,
} from "../../../shared/notifications/webhooks";
import { mswServer } from "../msw-server";

let nextNumber = 1;

function validationError(message: string) {
	return HttpResponse.json(
		{ success: false, error: errorBody("VALIDATION_ERROR", message) },
		{ status: ERRORS.VALIDATION_ERROR.status },
	);
}

/**
 * Answers the account's webhook routes from memory, as the server does for one person: an endpoint
 * added answers with its secret once; a test event is delivered at once with `testStatusCode`.
 * `refuseUrl` answers an add with that message, as the server refuses a private address.
 */
export function startFakeWebhooksApi(
	options: { testStatusCode?: number; refuseUrl?: { url: string; message: string } } = {},
) {
	const state = {
		endpoints: [] as WebhookEndpoint[],
		deliveries: new Map<string, WebhookDelivery[]>(),
		addRequests: [] as unknown[],
	};
	mswServer.use(
		http.get("*/api/account/webhooks", () => HttpResponse.json({ items: state.endpoints })),
		http.post("*/api/account/webhooks", async ({ request }) => {
			const body: unknown = await request.json();
			state.addRequests.push(body);
			const parsed = CreateWebhookRequestSchema.safeParse(body);
			if (!parsed.success) return validationError(parsed.error.issues[0]?.message ?? "");
			if (parsed.data.url === options.refuseUrl?.url) {
				return validationError(options.refuseUrl.message);
			}
			const number = nextNumber++;
			const endpoint: WebhookEndpoint = {
				id: `00000000-0000-4000-8000-${String(number).padStart(12, "0")}`,
				url: parsed.data.url,
				events: parsed.data.events,
				createdAt: new Date().toISOString(),
			};
			state.endpoints.unshift(endpoint);
			state.deliveries.set(endpoint.id, []);
			return HttpResponse.json(
				{ ...endpoint, secret: `whsec_c2VjcmV0LW51bWJlci0${number}` },
				{ status: 201 },
			);
		}),
		http.delete("*/api/account/webhooks/:id", ({ params }) => {
			state.endpoints = state.endpoints.filter((endpoint) => endpoint.id !== params.id);
			return HttpResponse.json({ success: true });
		}),
		http.post("*/api/account/webhooks/:id/test", ({ params }) => {
			const now = new Date().toISOString();
			const delivery: WebhookDelivery = {
				id: `msg_${nextNumber++}`,
				type: "webhook.test",
				status: "pending",
				attempts: 0,
				lastStatusCode: null,
				lastError: null,
				createdAt: now,
				lastAttemptAt: null,
				nextAttemptAt: now,
			};
			const statusCode = options.testStatusCode ?? 200;
			state.deliveries.get(String(params.id))?.unshift({
				...delivery,
				status: statusCode < 300 ? "delivered" : "pending",
				attempts: 1,
				lastStatusCode: statusCode,
				lastAttemptAt: now,
				nextAttemptAt: null,
			});
			return HttpResponse.json(delivery, { status: 202 });
		}),
		http.get("*/api/account/webhooks/:id/deliveries", ({ params }) =>
			HttpResponse.json({ items: state.deliveries.get(String(params.id)) ?? [] }),
		),
	);
	return state;
}
