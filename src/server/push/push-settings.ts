import { lookupAddresses } from "../net/guarded-agent";
import type { WebhookTargetRules } from "../webhooks/webhook-target";
import { deriveVapidKeys, type VapidKeys } from "./vapid-keys";

/** How Web Push is sent (decision 028): on or off, the server's keys, and where pushes may go. */
export type PushSettings = WebhookTargetRules & {
	/** WEB_PUSH: off, no push is sent and the routes say so. */
	isEnabled: boolean;
	/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; unset, derived from the server's secret. */
	vapidKeys?: VapidKeys;
	/** VAPID_SUBJECT; unset, the administrator's address or an https BASE_URL. */
	subject?: string;
	/** The waits between a push service's refusal for now (429, 5xx, no answer) and the next try. */
	retryDelaysMs: readonly number[];
	/** How long one attempt may take. */
	timeoutMs: number;
	/** How long a push service keeps a message for a device that is offline, in seconds. */
	timeToLiveSeconds: number;
};

/** Back-off within the message's time to live: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h. */
export const PUSH_RETRY_DELAYS_MS = [
	10_000,
	60_000,
	5 * 60_000,
	30 * 60_000,
	2 * 3_600_000,
	6 * 3_600_000,
];

export const DEFAULT_PUSH_SETTINGS: PushSettings = {
	isEnabled: true,
	allowPrivateTargets: false,
	resolveHost: lookupAddresses,
	retryDelaysMs: PUSH_RETRY_DELAYS_MS,
	timeoutMs: 10_000,
	// A generation's word is worth little a day later.
	timeToLiveSeconds: 12 * 3_600,
};

/** The keys and subject a server sends with: configured, or made from what it already has. */
export function resolveVapid(
	settings: PushSettings,
	server: { secret: string; adminEmail: string | undefined; baseUrl: string },
): { keys: VapidKeys; subject: string } {
	const subject =
		settings.subject ??
		(server.adminEmail
			? `mailto:${server.adminEmail}`
			: server.baseUrl.startsWith("https://")
				? server.baseUrl
				: `mailto:atelier@${new URL(server.baseUrl).hostname}`);
	return { keys: settings.vapidKeys ?? deriveVapidKeys(server.secret), subject };
}
