import { isIP } from "node:net";
import { DEFAULT_LANGUAGE } from "../../shared/i18n/languages";
import {
	pushRefusedCredentials,
	pushRefusedNotFound,
	pushRefusedNotPublic,
	pushRefusedNotUrl,
	pushRefusedScheme,
	sharedPushEndpointTooLong,
} from "../../shared/i18n/messages";
import { MAX_PUSH_ENDPOINT_LENGTH } from "../../shared/notifications/push";
import type { LocalizedMessage } from "../errors/app-error";
import { isPrivateAddress, unbracketHostname } from "../net/private-address";
import type { WebhookTargetRules } from "../webhooks/webhook-target";

/**
 * Why a push service address is refused, in words for the page that sent it: `text` in the
 * request's language, `message` in English (the server's logs).
 */
export class PushEndpointError extends Error {
	readonly text: LocalizedMessage;
	constructor(text: LocalizedMessage) {
		super(text({ language: DEFAULT_LANGUAGE }));
		this.name = "PushEndpointError";
		this.text = text;
	}
}

/** The refusal of a host on a private network; it never names the address DNS answered. */
export function notPublicPushMessage(hostname: string): LocalizedMessage {
	return (options) => pushRefusedNotPublic({ hostname }, options);
}

/**
 * Checks a subscription's endpoint as webhook targets are checked (WEBHOOK_ALLOW_PRIVATE_TARGETS
 * governs both): when it is saved and before every push, since DNS can change. A public https
 * address; with private targets allowed, any address, and plain http to a private one.
 */
export async function checkPushEndpoint(value: string, rules: WebhookTargetRules): Promise<URL> {
	if (value.length > MAX_PUSH_ENDPOINT_LENGTH) {
		throw new PushEndpointError((options) =>
			sharedPushEndpointTooLong({ max: String(MAX_PUSH_ENDPOINT_LENGTH) }, options),
		);
	}
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new PushEndpointError(pushRefusedNotUrl);
	}
	if (url.protocol !== "https:" && url.protocol !== "http:") {
		throw new PushEndpointError(pushRefusedScheme);
	}
	if (url.username || url.password) {
		throw new PushEndpointError(pushRefusedCredentials);
	}
	const hostname = unbracketHostname(url.hostname);
	const addresses =
		isIP(hostname) !== 0 ? [hostname] : await rules.resolveHost(hostname).catch(() => []);
	if (addresses.length === 0) {
		throw new PushEndpointError((options) => pushRefusedNotFound({ hostname }, options));
	}
	const isPrivate = addresses.some(isPrivateAddress);
	if (isPrivate && !rules.allowPrivateTargets) {
		throw new PushEndpointError(notPublicPushMessage(hostname));
	}
	if (url.protocol === "http:" && !isPrivate) {
		throw new PushEndpointError(pushRefusedScheme);
	}
	return url;
}
