import { isIP } from "node:net";
import { type RequestInit as UndiciRequestInit, fetch as undiciFetch } from "undici";
import { createGuardedAgent, lookupAddresses } from "../net/guarded-agent";
import { isPrivateAddress, unbracketHostname } from "../net/private-address";
import { BodyTooLargeError, cancelBody, readLimitedBody } from "../net/read-limited-body";
import { createRequestDeadline, raceWithSignal } from "../net/request-deadline";
import { parseRetryAfter } from "../net/retry-after";
import { sniffImageType } from "../net/sniff-image-type";
import { toRequestFailure } from "../providers/shared/request-failure";
import { ProviderError } from "../providers/types";

export type DownloadImageOptions = {
	/** Largest body accepted, checked against Content-Length and counted while streaming. */
	maxBytes: number;
	/** Budget for the whole download: every redirect hop, DNS lookup and the body. */
	timeoutMs: number;
	/**
	 * Hostnames or host:port pairs that may be on a private network (a self-hosted provider such
	 * as `127.0.0.1:8188`); every other host must resolve to public addresses only.
	 */
	allowPrivateHosts: readonly string[];
	signal?: AbortSignal;
	fetch?: typeof fetch;
	/** Every address a hostname resolves to; DNS by default, injectable for tests. */
	resolveHost?: (hostname: string) => Promise<string[]>;
};

type DownloadedImage = {
	data: Uint8Array;
	/** The type sniffed from the bytes, not the one the server declared. */
	contentType: string;
};

const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads a provider's image over http(s), refusing private-network addresses (unless allowed),
 * more than three redirects, bodies over `maxBytes` and anything that is not a PNG, JPEG, WebP, GIF
 * or AVIF. Failures are ProviderErrors, retryable for network errors, timeouts, 429 and 5xx; an
 * abort of `options.signal` rejects with the signal's reason.
 */
export async function downloadImage(
	url: string,
	options: DownloadImageOptions,
): Promise<DownloadedImage> {
	const resolveHost = options.resolveHost ?? lookupAddresses;
	const allowedHosts = new Set(options.allowPrivateHosts.map(normalizeAllowedHost));
	// The connection itself resolves the host again and checks that answer too: a DNS server that
	// answers "public" to our check and "private" to the connection (rebinding) gets nowhere.
	const guard = options.fetch
		? undefined
		: createGuardedAgent({
				isAllowedHost: (host) =>
					[...allowedHosts].some((entry) => entry === host || entry.startsWith(`${host}:`)),
				resolveHost,
				refuse: (host, privateAddress) =>
					new ProviderError(
						`Refused connection to ${host}: it resolved to a private address (${privateAddress})`,
						{ retryable: false },
					),
			});
	const fetchImage: typeof fetch =
		options.fetch ??
		((input, init) =>
			undiciFetch(input as string | URL, {
				...(init as UndiciRequestInit),
				dispatcher: guard,
			}) as unknown as Promise<Response>);
	const deadline = createRequestDeadline(options.timeoutMs, options.signal);
	let current = parseImageUrl(url);
	const what = `Image download from ${describeUrl(current)}`;
	try {
		for (let redirects = 0; ; redirects += 1) {
			await assertReachableHost(current, allowedHosts, resolveHost, deadline.signal);
			// Redirects are followed by hand so every hop passes the same scheme and address checks.
			const response = await fetchImage(current, {
				redirect: "manual",
				signal: deadline.signal,
				headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*" },
			});
			if (REDIRECT_STATUSES.has(response.status)) {
				await cancelBody(response);
				current = followRedirect(current, response, redirects);
				continue;
			}
			if (!response.ok) {
				await cancelBody(response);
				throw toStatusError(response, current);
			}
			const data = await readImageBody(response, current, options.maxBytes);
			const contentType = sniffImageType(data);
			if (!contentType) {
				const declared = response.headers.get("content-type") ?? "no content type";
				throw new ProviderError(
					`${describeUrl(current)} is not an image (declared ${declared}; its bytes are not PNG, JPEG, WebP, GIF or AVIF)`,
					{ retryable: false },
				);
			}
			return { data, contentType };
		}
	} catch (error) {
		throw toRequestFailure(error, deadline, what);
	} finally {
		await guard?.close().catch(() => {});
	}
}

function parseImageUrl(value: string): URL {
	let url: URL;
	try {
		url = new URL(value);
	} catch (error) {
		throw new ProviderError(`Not a valid image URL: ${JSON.stringify(value.slice(0, 200))}`, {
			retryable: false,
			cause: error,
		});
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new ProviderError(
			`Refused image URL with scheme ${url.protocol} (only http and https are downloaded)`,
			{ retryable: false },
		);
	}
	return url;
}

function followRedirect(from: URL, response: Response, redirects: number): URL {
	const location = response.headers.get("location");
	if (!location) {
		throw new ProviderError(
			`${describeUrl(from)} answered HTTP ${response.status} without a Location`,
			{ retryable: false },
		);
	}
	if (redirects >= MAX_REDIRECTS) {
		throw new ProviderError(
			`Image download from ${describeUrl(from)} redirected more than ${MAX_REDIRECTS} times`,
			{ retryable: false },
		);
	}
	return parseImageUrl(new URL(location, from).href);
}

/**
 * Refuses a host on a private network unless it is allowed. Every resolved address must be public:
 * one private answer is enough for the connection to land there.
 */
async function assertReachableHost(
	url: URL,
	allowedHosts: ReadonlySet<string>,
	resolveHost: (hostname: string) => Promise<string[]>,
	signal: AbortSignal,
): Promise<void> {
	if (isAllowedHost(url, allowedHosts)) return;
	const hostname = unbracketHostname(url.hostname);
	const addresses = isIpLiteral(url.hostname)
		? [hostname]
		: await raceWithSignal(resolveHost(hostname), signal);
	if (addresses.length === 0) {
		throw new ProviderError(`${hostname} resolved to no address`, { retryable: true });
	}
	const privateAddress = addresses.find(isPrivateAddress);
	if (privateAddress !== undefined) {
		throw new ProviderError(
			`Refused image URL ${describeUrl(url)}: ${hostname} is on a private network (${privateAddress}) and not an allowed host`,
			{ retryable: false },
		);
	}
}

function isAllowedHost(url: URL, allowedHosts: ReadonlySet<string>): boolean {
	if (allowedHosts.size === 0) return false;
	const hostname = url.hostname.toLowerCase();
	const port = url.port || (url.protocol === "https:" ? "443" : "80");
	return allowedHosts.has(hostname) || allowedHosts.has(`${hostname}:${port}`);
}

// Entries are written by hand ("::1", "[::1]:8188", "LocalHost:8188"); parse them like URL hosts so
// they compare with `url.hostname`, keeping an explicit port even where URL would drop it (":80").
function normalizeAllowedHost(entry: string): string {
	const trimmed = entry.trim().toLowerCase();
	const hostAndPort = isIP(trimmed) === 6 ? `[${trimmed}]` : trimmed;
	const port = /:(\d+)$/.exec(hostAndPort)?.[1];
	try {
		const { hostname } = new URL(`http://${hostAndPort}`);
		return port ? `${hostname}:${port}` : hostname;
	} catch {
		return hostAndPort;
	}
}

function isIpLiteral(hostname: string): boolean {
	return isIP(unbracketHostname(hostname)) !== 0;
}

async function readImageBody(response: Response, url: URL, maxBytes: number): Promise<Uint8Array> {
	try {
		return await readLimitedBody(response, maxBytes);
	} catch (error) {
		if (error instanceof BodyTooLargeError) {
			throw new ProviderError(`Image at ${describeUrl(url)} is larger than ${maxBytes} bytes`, {
				retryable: false,
				cause: error,
			});
		}
		throw error;
	}
}

function toStatusError(response: Response, url: URL): ProviderError {
	const status = response.status;
	if (status === 429 || status >= 500) {
		return new ProviderError(`Image download from ${describeUrl(url)} answered HTTP ${status}`, {
			retryable: true,
			retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
			isBusy: status === 429,
		});
	}
	if (status === 404 || status === 410) {
		return new ProviderError(`Image URL not found (HTTP ${status}): ${describeUrl(url)}`, {
			retryable: false,
		});
	}
	return new ProviderError(`Image download from ${describeUrl(url)} answered HTTP ${status}`, {
		retryable: false,
	});
}

// Provider image URLs often carry signed tokens in the query; logs get the origin and path only.
function describeUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}
