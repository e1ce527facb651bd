import type { Generated } from "kysely";
import type { NullableTimestamp, Timestamp } from "./timestamps";

/** An account's webhook endpoint; the signing secret sealed with the server's secret. */
export type WebhookEndpointsTable = {
	id: string;
	user_id: string;
	url: string;
	events: string[];
	sealed_secret: string;
	created_at: Timestamp;
};

/** One event sent (or to be sent) to one endpoint; `id` is its webhook-id. */
export type WebhookDeliveriesTable = {
	id: string;
	endpoint_id: string;
	type: string;
	body: string;
	status: Generated<"pending" | "delivered" | "failed">;
	attempts: Generated<number>;
	last_status_code: number | null;
	last_error: string | null;
	last_response: string | null;
	created_at: Timestamp;
	last_attempt_at: NullableTimestamp;
	next_attempt_at: NullableTimestamp;
};

/** The attempt in flight to an endpoint, if any: its job, and until when its turn holds. */
export type WebhookEndpointTurnsTable = {
	endpoint_id: string;
	holder: string;
	lease_until: Timestamp;
};
