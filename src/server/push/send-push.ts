import { fetch as undiciFetch } from "undici";
import webPush from "web-push";
import type { PushNotification } from "../../shared/notifications/push";
import { createGuardedAgent } from "../net/guarded-agent";
import { createRequestDeadline, describeNetworkError } from "../net/request-deadline";
import { readRetryAfterMs } from "../net/retry-after";
import { checkPushEndpoint, notPublicPushMessage, PushEndpointError } from "./push-endpoint";
import type { PushSubscriptionRow } from "./push-repository";
import type { PushSettings } from "./push-settings";
import type { VapidKeys } from "./vapid-keys";

/** Push services take at most 4096 bytes of encrypted body (RFC 8030); ours stays well under. */
export const MAX_PUSH_PAYLOAD_BYTES = 3_000;

/** What one attempt came to. */
export type PushAttemptResult =
	| { outcome: "delivered"; statusCode: number }
	/** 404 or 410: the browser unsubscribed, or the subscription expired; it never comes back. */
	| { outcome: "gone"; statusCode: number }
	/** 429, 5xx or no answer: another try may succeed (after `retryAfterMs` when the service said). */
	| { outcome: "retry"; statusCode: number | null; retryAfterMs?: number; error: string }
	/** Anything else (a refused address, 400, 403, 413): trying again would change nothing. */
	| { outcome: "refused"; statusCode: number | null; error: string };

/**
 * Sends one notification to one subscription: `web-push` signs it (VAPID, ES256) and encrypts it
 * (aes128gcm) with the subscription's keys; the request itself goes out as a webhook's does (the
 * endpoint checked again, and at connection time against DNS rebinding, no redirects followed,
 * `timeoutMs` for the whole attempt).
 */
export async function sendPush(
	subscription: Pick<PushSubscriptionRow, "endpoint" | "p256dh" | "auth">,
	notification: PushNotification,
	options: {
		settings: PushSettings;
		vapid: { keys: VapidKeys; subject: string };
		/** Lets the push service replace a message still waiting for the device (32 characters). */
		topic?: string;
	},
): Promise<PushAttemptResult> {
	const { settings } = options;
	const payload = JSON.stringify(notification);
	if (Buffer.byteLength(payload) > MAX_PUSH_PAYLOAD_BYTES) {
		return { outcome: "refused", statusCode: null, error: "The notification is too large." };
	}
	const deadline = createRequestDeadline(settings.timeoutMs, undefined);
	const agent = createGuardedAgent({
		isAllowedHost: () => settings.allowPrivateTargets,
		resolveHost: settings.resolveHost,
		refuse: (host) => new PushEndpointError(notPublicPushMessage(host)),
	});
	try {
		await checkPushEndpoint(subscription.endpoint, settings);
		const request = webPush.generateRequestDetails(
			{
				endpoint: subscription.endpoint,
				keys: { p256dh: subscription.p256dh, auth: subscription.auth },
			},
			payload,
			{
				vapidDetails: { subject: options.vapid.subject, ...options.vapid.keys },
				TTL: settings.timeToLiveSeconds,
				contentEncoding: "aes128gcm",
				urgency: "normal",
				...(options.topic ? { topic: options.topic } : {}),
			},
		);
		const headers = Object.fromEntries(
			Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
		);
		const response = await undiciFetch(request.endpoint, {
			method: "POST",
			headers,
			body: request.body ?? undefined,
			redirect: "manual",
			signal: deadline.signal,
			dispatcher: agent,
		});
		await response.body?.cancel().catch(() => undefined);
		return classify(response.status, response.headers);
	} catch (error) {
		if (deadline.timeoutSignal.aborted) {
			return {
				outcome: "retry",
				statusCode: null,
				error: `No answer within ${Math.round(settings.timeoutMs / 1000)} s.`,
			};
		}
		const refusal = error instanceof PushEndpointError ? error : causeOf(error);
		if (refusal) return { outcome: "refused", statusCode: null, error: refusal.message };
		return { outcome: "retry", statusCode: null, error: describeNetworkError(error) };
	} finally {
		await agent.close().catch(() => {});
	}
}

function causeOf(error: unknown): PushEndpointError | undefined {
	const cause = error instanceof Error ? error.cause : undefined;
	return cause instanceof PushEndpointError ? cause : undefined;
}

function classify(status: number, headers: Headers): PushAttemptResult {
	if (status >= 200 && status < 300) return { outcome: "delivered", statusCode: status };
	if (status === 404 || status === 410) return { outcome: "gone", statusCode: status };
	if (status === 429 || status >= 500) {
		const retryAfterMs = readRetryAfterMs(headers);
		return {
			outcome: "retry",
			statusCode: status,
			...(retryAfterMs === undefined ? {} : { retryAfterMs }),
			error: `The push service answered HTTP ${status}.`,
		};
	}
	return {
		outcome: "refused",
		statusCode: status,
		error: `The push service answered HTTP ${status}.`,
	};
}
