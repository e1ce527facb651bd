import { isIP } from "node:net";
import { MAX_PUSH_ENDPOINT_LENGTH } from "../../shared/notifications/push";
import { isPrivateAddress, unbracketHostname } from "../net/private-address";
import type { WebhookTargetRules } from "../webhooks/webhook-target";

/** Why a push service address is refused, in words for the page that sent it. */
export class PushEndpointError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PushEndpointError";
	}
}

/** The refusal of a host on a private network; it never names the address DNS answered. */
export function notPublicPushMessage(hostname: string): string {
	return `${hostname} is not a public address; notifications go only to public push services.`;
}

/**
 * Checks a subscription's endpoint as webhook targets are checked (WEBHOOK_ALLOW_PRIVATE_TARGETS
 * governs both): when it is saved and before every push, since DNS can change. A public https
 * address; with private targets allowed, any address, and plain http to a private one.
 */
export async function checkPushEndpoint(value: string, rules: WebhookTargetRules): Promise<URL> {
	if (value.length > MAX_PUSH_ENDPOINT_LENGTH) {
		throw new PushEndpointError(
			`The endpoint is longer than ${MAX_PUSH_ENDPOINT_LENGTH} characters.`,
		);
	}
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new PushEndpointError("The endpoint is not a URL.");
	}
	if (url.protocol !== "https:" && url.protocol !== "http:") {
		throw new PushEndpointError("The endpoint must start with https://.");
	}
	if (url.username || url.password) {
		throw new PushEndpointError("The endpoint must not contain a user name or password.");
	}
	const hostname = unbracketHostname(url.hostname);
	const addresses =
		isIP(hostname) !== 0 ? [hostname] : await rules.resolveHost(hostname).catch(() => []);
	if (addresses.length === 0) {
		throw new PushEndpointError(`${hostname} could not be found.`);
	}
	const isPrivate = addresses.some(isPrivateAddress);
	if (isPrivate && !rules.allowPrivateTargets) {
		throw new PushEndpointError(notPublicPushMessage(hostname));
	}
	if (url.protocol === "http:" && !isPrivate) {
		throw new PushEndpointError("The endpoint must start with https://.");
	}
	return url;
}
