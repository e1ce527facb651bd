// The account's webhooks: the events an endpoint may ask for and what the webhook routes answer,
// in zod/mini like generation-responses.ts, for the account page to parse.
import { z } from "zod/mini";
import {
	sharedWebhookEventsMissing,
	sharedWebhookEventUnknown,
	sharedWebhookRequestMissing,
	sharedWebhookUrlMissing,
} from "../i18n/messages";

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
	"generation.completed",
	"generation.failed",
	"generation.deleted",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by "Send test event", whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** How many endpoints one account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** The longest endpoint URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;

/** `POST /api/account/webhooks`; the server checks the URL itself (scheme, address). */
export const CreateWebhookRequestSchema = z.object(
	{
		url: z
			.string({ error: () => sharedWebhookUrlMissing() })
			.check(z.trim(), z.minLength(1, { error: () => sharedWebhookUrlMissing() })),
		events: z
			.array(
				z.enum(WEBHOOK_EVENT_TYPES, {
					error: () => sharedWebhookEventUnknown(),
				}),
			)
			.check(z.minLength(1, { error: () => sharedWebhookEventsMissing() })),
	},
	{ error: () => sharedWebhookRequestMissing() },
);
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

const WebhookEndpointSchema = z.object({
	id: z.string(),
	url: z.string(),
	events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
	createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The answer to creating an endpoint: the only time its signing secret is shown. */
export const CreatedWebhookSchema = z.extend(WebhookEndpointSchema, {
	secret: z.string().check(z.startsWith("whsec_")),
});

/** `GET /api/account/webhooks`: newest first. */
export const WebhookEndpointListSchema = z.object({ items: z.array(WebhookEndpointSchema) });

const WebhookDeliverySchema = z.object({
	/** The delivery's `webhook-id`, the same on every attempt. */
	id: z.string(),
	type: z.string(),
	/** pending: waiting for its first or next attempt; failed: every attempt failed. */
	status: z.enum(["pending", "delivered", "failed"]),
	attempts: z.int(),
	lastStatusCode: z.nullable(z.int()),
	/** Why the last attempt had no usable answer (timeout, refused address, network), if so. */
	lastError: z.nullable(z.string()),
	createdAt: z.string(),
	lastAttemptAt: z.nullable(z.string()),
	nextAttemptAt: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** `POST /api/account/webhooks/:id/test`: the test delivery, queued. */
export const QueuedWebhookDeliverySchema = WebhookDeliverySchema;

/** `GET /api/account/webhooks/:id/deliveries`: the newest 50, newest first. */
export const WebhookDeliveryListSchema = z.object({ items: z.array(WebhookDeliverySchema) });
