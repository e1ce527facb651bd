import { isPrivateHostname } from "../../net/private-address";
import { ProviderError } from "../types";

/**
 * A configured base URL (the vendor's API root), checked once at boot: a bad one is a
 * configuration mistake, not a provider failure. The path keeps a trailing slash so paths can be
 * resolved below it.
 */
export function parseBaseUrl(value: string, variable: string): URL {
	const url = URL.canParse(value) ? new URL(value) : undefined;
	if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
		throw new Error(`${variable} is not an http(s) URL: ${JSON.stringify(value)}`);
	}
	if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
	url.search = "";
	url.hash = "";
	return url;
}

/** `path` below a base URL, keeping the base's own path (a reverse proxy's prefix, or `/v1`). */
export function resolveBelow(base: URL, path: string): URL {
	return new URL(path.replace(/^\/+/, ""), base);
}

/** An http(s) URL a vendor answered (or a saved job id holds); anything else is refused. */
export function parseVendorUrl(value: string, label: string): URL {
	const url = URL.canParse(value) ? new URL(value) : undefined;
	if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
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
