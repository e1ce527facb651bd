import { isIP } from "node:net";
import { DEFAULT_LANGUAGE } from "../../shared/i18n/languages";
import {
	webhookRefusedCredentials,
	webhookRefusedNotFound,
	webhookRefusedNotPublic,
	webhookRefusedNotUrl,
	webhookRefusedScheme,
	webhookRefusedTooLong,
} from "../../shared/i18n/messages";
import { MAX_WEBHOOK_URL_LENGTH } from "../../shared/notifications/webhooks";
import type { LocalizedMessage } from "../errors/app-error";
import { isPrivateAddress, unbracketHostname } from "../net/private-address";

/** Where webhooks may go: public addresses only, unless the operator allows private ones. */
export type WebhookTargetRules = {
	/**
	 * WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback, private, link-local and metadata addresses are
	 * allowed, and plain http to them (tests, and receivers on the operator's own network).
	 */
	allowPrivateTargets: boolean;
	/** Every address a hostname resolves to; DNS unless a test gives its own. */
	resolveHost: (hostname: string) => Promise<string[]>;
};

/**
 * Why an endpoint URL is refused, in words for the person who typed it: `text` in their language
 * (the account page's refusal), `message` in English (the delivery log and the server's logs).
 */
export class WebhookTargetError extends Error {
	readonly text: LocalizedMessage;
	constructor(text: LocalizedMessage) {
		super(text({ language: DEFAULT_LANGUAGE }));
		this.name = "WebhookTargetError";
		this.text = text;
	}
}

/**
 * The refusal of a host that is, or resolves to, a non-public address. It never names the address
 * DNS answered: that would let anyone resolve the server's internal names through this message.
 */
export function notPublicMessage(hostname: string): LocalizedMessage {
	return (options) => webhookRefusedNotPublic({ hostname }, options);
}

/** A URL's addresses, and whether any of them is on a private network. */
async function resolveTarget(url: URL, rules: WebhookTargetRules) {
	const hostname = unbracketHostname(url.hostname);
	let addresses: string[];
	if (isIP(hostname) !== 0) {
		addresses = [hostname];
	} else {
		addresses = await rules.resolveHost(hostname).catch(() => []);
		if (addresses.length === 0) {
			throw new WebhookTargetError((options) => webhookRefusedNotFound({ hostname }, options));
		}
	}
	return { hostname, privateAddress: addresses.find(isPrivateAddress) };
}

/**
 * Checks an endpoint URL when it is saved and again before every attempt (DNS can change): an
 * https URL whose host resolves only to public addresses; with private targets allowed, any
 * address, and plain http to a private one. Throws a WebhookTargetError saying what is wrong.
 */
export async function checkWebhookTarget(value: string, rules: WebhookTargetRules): Promise<URL> {
	if (value.length > MAX_WEBHOOK_URL_LENGTH) {
		throw new WebhookTargetError((options) =>
			webhookRefusedTooLong({ max: String(MAX_WEBHOOK_URL_LENGTH) }, options),
		);
	}
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new WebhookTargetError(webhookRefusedNotUrl);
	}
	if (url.protocol !== "https:" && url.protocol !== "http:") {
		throw new WebhookTargetError(webhookRefusedScheme);
	}
	if (url.username || url.password) {
		throw new WebhookTargetError(webhookRefusedCredentials);
	}
	const { hostname, privateAddress } = await resolveTarget(url, rules);
	if (privateAddress !== undefined && !rules.allowPrivateTargets) {
		throw new WebhookTargetError(notPublicMessage(hostname));
	}
	if (url.protocol === "http:" && privateAddress === undefined) {
		throw new WebhookTargetError(webhookRefusedScheme);
	}
	return url;
}
