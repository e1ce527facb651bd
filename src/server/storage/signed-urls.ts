import { createHmac, timingSafeEqual } from "node:crypto";
import { assertValidKey, type Storage } from "./storage";

// Short-lived URLs a service outside Atelier fetches one stored object from, with no session: an
// S3 bucket's own presigned GET, else a route of ours (GET /api/signed-files/<token>) whose token
// names the object and its expiry under an HMAC of the server's secret. The one home of signed
// file URLs (docs/decisions/033-region-edit.md).

/** How long a signed URL lasts: a service fetches its images when it takes the job. */
export const SIGNED_URL_SECONDS = 15 * 60;

/** The route our signed URLs point at, before the token. */
export const SIGNED_FILE_PATH = "/api/signed-files/";

export type SignedUrls = {
	/** A URL anyone holding it may GET the object under `key` from, until `seconds` from now. */
	urlFor(key: string, seconds?: number): Promise<string>;
	/**
	 * The key a token of our route names, where its signature holds and it has not expired;
	 * undefined for anything else, which the route answers alike (404), revealing nothing.
	 */
	readToken(token: string): string | undefined;
};

const TOKEN_PATTERN = /^([A-Za-z0-9_-]+)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Signed URLs over `storage`: its presigned GET where it has one (S3), else ours under `baseUrl`,
 * signed with a key derived from the server's `secret` (so they end when the secret changes).
 */
export function createSignedUrls(options: {
	storage: Storage;
	baseUrl: string;
	secret: string;
	now?: () => number;
}): SignedUrls {
	const { storage } = options;
	const now = options.now ?? Date.now;
	// A key of its own, so nothing else signed with the server's secret is a valid file token.
	const signingKey = createHmac("sha256", options.secret).update("atelier signed files").digest();
	const sign = (key: string, expires: number) =>
		createHmac("sha256", signingKey).update(`${key}\n${expires}`).digest("base64url");
	const origin = options.baseUrl.replace(/\/+$/, "");

	return {
		async urlFor(key, seconds = SIGNED_URL_SECONDS) {
			assertValidKey(key);
			if (storage.presignGet) return storage.presignGet(key, seconds);
			const expires = Math.floor(now() / 1000) + seconds;
			const encodedKey = Buffer.from(key, "utf8").toString("base64url");
			return `${origin}${SIGNED_FILE_PATH}${encodedKey}.${expires}.${sign(key, expires)}`;
		},
		readToken(token) {
			const match = TOKEN_PATTERN.exec(token);
			if (!match) return undefined;
			const key = Buffer.from(match[1] ?? "", "base64url").toString("utf8");
			const expires = Number(match[2]);
			// The signature's text, not its decoded bytes: a 43-character base64url string ends in a
			// character whose low bits are padding, so two texts can decode alike. Only ours holds.
			const given = Buffer.from(match[3] ?? "", "latin1");
			const expected = Buffer.from(sign(key, expires), "latin1");
			if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
			if (expires * 1000 <= now()) return undefined;
			try {
				assertValidKey(key);
			} catch {
				return undefined;
			}
			return key;
		},
	};
}
