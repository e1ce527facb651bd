import { fetch as undiciFetch } from "undici";
import { createGuardedAgent } from "../net/guarded-agent";
import { createRequestDeadline, describeNetworkError } from "../net/request-deadline";
import type { SignedWebhook } from "./webhook-signature";
import {
	checkWebhookTarget,
	notPublicMessage,
	WebhookTargetError,
	type WebhookTargetRules,
} from "./webhook-target";

/** How much of a receiver's answer is kept for the delivery log. */
export const MAX_KEPT_RESPONSE_BYTES = 1024;

/** What one attempt came to: a status code, or why there was none. */
export type WebhookAttemptResult = {
	isDelivered: boolean;
	statusCode: number | null;
	/** The start of the answer's body, at most MAX_KEPT_RESPONSE_BYTES. */
	response: string | null;
	error: string | null;
};

/**
 * Sends one attempt of a delivery to a receiver we do not trust: its address is checked again
 * (and at connection time, against DNS rebinding), redirects are not followed (a 3xx is a failed
 * attempt), the whole attempt has `timeoutMs`, and at most 1 kB of the answer is read. Only a 2xx
 * answer counts as delivered.
 */
export async function sendWebhook(
	url: string,
	signed: SignedWebhook,
	options: WebhookTargetRules & { timeoutMs: number },
): Promise<WebhookAttemptResult> {
	const deadline = createRequestDeadline(options.timeoutMs, undefined);
	const agent = createGuardedAgent({
		isAllowedHost: () => options.allowPrivateTargets,
		resolveHost: options.resolveHost,
		refuse: (host) => new WebhookTargetError(notPublicMessage(host)),
	});
	try {
		await checkWebhookTarget(url, options);
		const response = await undiciFetch(url, {
			method: "POST",
			headers: { ...signed.headers, "user-agent": "Atelier-Webhooks" },
			body: signed.body,
			redirect: "manual",
			signal: deadline.signal,
			dispatcher: agent,
		});
		const keptResponse = await readStart(response.body, deadline.signal);
		const isDelivered = response.status >= 200 && response.status < 300;
		return {
			isDelivered,
			statusCode: response.status,
			response: keptResponse,
			error: isDelivered
				? null
				: response.status >= 300 && response.status < 400
					? `Answered a redirect (HTTP ${response.status}); redirects are not followed.`
					: null,
		};
	} catch (error) {
		return {
			isDelivered: false,
			statusCode: null,
			response: null,
			error: describeFailure(error, deadline),
		};
	} finally {
		await agent.close().catch(() => {});
	}
}

/** The first MAX_KEPT_RESPONSE_BYTES of a body as text; the rest is never read. */
async function readStart(
	body: Awaited<ReturnType<typeof undiciFetch>>["body"],
	signal: AbortSignal,
): Promise<string | null> {
	if (!body) return null;
	const reader = body.getReader();
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		while (total < MAX_KEPT_RESPONSE_BYTES && !signal.aborted) {
			const { done, value } = await reader.read();
			if (done) break;
			chunks.push(Buffer.from(value));
			total += value.byteLength;
		}
	} finally {
		await reader.cancel().catch(() => undefined);
	}
	const bytes = Buffer.concat(chunks).subarray(0, MAX_KEPT_RESPONSE_BYTES);
	return bytes.toString("utf8");
}

function describeFailure(
	error: unknown,
	deadline: ReturnType<typeof createRequestDeadline>,
): string {
	if (deadline.timeoutSignal.aborted) {
		return `No answer within ${Math.round(deadline.timeoutMs / 1000)} s.`;
	}
	if (error instanceof WebhookTargetError) return `Refused: ${error.message}`;
	const cause = error instanceof Error ? error.cause : undefined;
	if (cause instanceof WebhookTargetError) return `Refused: ${cause.message}`;
	return describeNetworkError(error);
}
