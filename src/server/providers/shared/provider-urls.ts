import { isPrivateHostname } from "../../net/private-address";
import { ProviderError } from "../types";

/** `value` (resolved against `base` when given) as an http(s) URL; undefined when it is not one. */
export function readHttpUrl(value: string, base?: URL): URL | undefined {
	const url = URL.canParse(value, base) ? new URL(value, base) : undefined;
	return url && (url.protocol === "http:" || url.protocol === "https:") ? url : undefined;
}

/**
 * A configured URL, checked once at boot: a bad one is a configuration mistake, not a provider
 * failure. `name` says what to fix, such as the variable.
 */
export function parseConfiguredUrl(value: string, name: string): URL {
	const url = readHttpUrl(value);
	if (!url) throw new Error(`${name} is not an http(s) URL: ${JSON.stringify(value)}`);
	return url;
}

/**
 * A configured base URL (the vendor's API root), checked once at boot. The path keeps a trailing
 * slash so paths can be resolved below it.
 */
export function parseBaseUrl(value: string, variable: string): URL {
	const url = parseConfiguredUrl(value, variable);
	if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
	url.search = "";
	url.hash = "";
	return url;
}

/** `path` below a base URL, keeping the base's own path (a reverse proxy's prefix, or `/v1`). */
export function resolveBelow(base: URL, path: string): URL {
	return new URL(path.replace(/^\/+/, ""), base);
}

/**
 * An http(s) URL a vendor answered (or a saved job id holds), resolved against `base` when given;
 * anything else is refused.
 */
export function parseVendorUrl(value: string, label: string, base?: URL): URL {
	const url = readHttpUrl(value, base);
	if (!url) {
		throw new ProviderError(
			`${label} is not an http(s) URL: ${JSON.stringify(value.slice(0, 200))}`,
			{ retryable: false },
		);
	}
	return url;
}

/**
 * The hosts images may be downloaded from on a private network: the API's own host:port when it
 * is private (a self-hosted gateway, or a local fake), nothing otherwise.
 */
export function listTrustedPrivateHosts(apiUrl: URL): string[] {
	if (!isPrivateHostname(apiUrl.hostname)) return [];
	// Explicit port even when it is the scheme's default, so the entry names exactly one service.
	return [`${apiUrl.hostname}:${apiUrl.port || (apiUrl.protocol === "https:" ? "443" : "80")}`];
}

// Answer URLs may carry signed tokens in the query; logs get the origin and path only.
export function describeUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}
