import { createHmac } from "node:crypto";
import { webhookSecretKey } from "./webhook-secret";

/** What one attempt of a delivery sends: the Standard Webhooks headers and the body they sign. */
export type SignedWebhook = {
	headers: Record<string, string>;
	body: string;
};

/**
 * Signs a delivery as the Standard Webhooks specification asks: HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes, sent as `v1,<base64>`.
 * The id stays the same on every attempt (receivers deduplicate with it); the timestamp is the
 * attempt's own, in seconds (receivers refuse old ones).
 */
export function signWebhook(options: {
	secret: string;
	id: string;
	timestampSeconds: number;
	body: string;
}): SignedWebhook {
	const { id, timestampSeconds, body } = options;
	const signature = createHmac("sha256", webhookSecretKey(options.secret))
		.update(`${id}.${timestampSeconds}.${body}`)
		.digest("base64");
	return {
		headers: {
			"content-type": "application/json",
			"webhook-id": id,
			"webhook-timestamp": String(timestampSeconds),
			"webhook-signature": `v1,${signature}`,
		},
		body,
	};
}
