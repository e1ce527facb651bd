import {
	createDecipheriv,
	createECDH,
	createPublicKey,
	hkdfSync,
	randomBytes,
	verify,
} from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A subscription as a browser makes it: its endpoint and keys, and the keys' private half. */
export type TestPushSubscription = {
	endpoint: string;
	keys: { p256dh: string; auth: string };
	privateKey: Buffer;
};

/** One message the stand-in push service took, decrypted. */
export type ReceivedPush = {
	endpoint: string;
	/** The decrypted body, parsed as JSON. */
	message: unknown;
	/** The encrypted body's length: push services take at most 4096 bytes. */
	bodyBytes: number;
	ttl: number;
	/** The VAPID public key (`k`) the request was signed with. */
	vapidKey: string;
	/** The JWT's claims. */
	claims: { aud: string; exp: number; sub: string };
	receivedAt: number;
};

/** What the stand-in answers one request, by its number (from 1) among those for its endpoint. */
export type PushServiceAnswer = { status: number; headers?: Record<string, string> };

class PushCheckError extends Error {}

function fromBase64url(text: string): Buffer {
	return Buffer.from(text, "base64url");
}

/**
 * Checks the VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`, the JWT
 * ES256-signed by that key, for this origin, expiring within 24 hours, with a subject.
 */
function checkVapid(header: string | undefined, origin: string) {
	const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
	if (!match?.[1] || !match[2]) throw new PushCheckError("no VAPID Authorization header");
	const [token, key] = [match[1], match[2]];
	const [encodedHeader, encodedClaims, signature] = token.split(".");
	if (!encodedHeader || !encodedClaims || !signature) throw new PushCheckError("malformed JWT");
	const jwtHeader = JSON.parse(fromBase64url(encodedHeader).toString()) as { alg?: string };
	if (jwtHeader.alg !== "ES256") throw new PushCheckError(`JWT alg ${jwtHeader.alg}`);
	const point = fromBase64url(key);
	if (point.length !== 65 || point[0] !== 4) throw new PushCheckError("k is not a P-256 point");
	const publicKey = createPublicKey({
		key: {
			kty: "EC",
			crv: "P-256",
			x: point.subarray(1, 33).toString("base64url"),
			y: point.subarray(33).toString("base64url"),
		},
		format: "jwk",
	});
	const isSigned = verify(
		"sha256",
		Buffer.from(`${encodedHeader}.${encodedClaims}`),
		{ key: publicKey, dsaEncoding: "ieee-p1363" },
		fromBase64url(signature),
	);
	if (!isSigned) throw new PushCheckError("JWT signature does not verify");
	const claims = JSON.parse(fromBase64url(encodedClaims).toString()) as ReceivedPush["claims"];
	if (claims.aud !== origin) throw new PushCheckError(`aud ${claims.aud} is not ${origin}`);
	const now = Math.floor(Date.now() / 1000);
	if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) {
		throw new PushCheckError("exp is not within 24 hours");
	}
	if (!/^(mailto:|https:)/.test(claims.sub ?? "")) throw new PushCheckError("no subject");
	return { key, claims };
}

/** Decrypts an aes128gcm body (RFC 8188, 8291) with the subscription's private key and secret. */
function decrypt(body: Buffer, subscription: TestPushSubscription): Buffer {
	const salt = body.subarray(0, 16);
	const idLength = body.readUInt8(20);
	const senderKey = body.subarray(21, 21 + idLength);
	const ciphertext = body.subarray(21 + idLength);
	const receiver = createECDH("prime256v1");
	receiver.setPrivateKey(subscription.privateKey);
	const shared = receiver.computeSecret(senderKey);
	const keyInfo = Buffer.concat([
		Buffer.from("WebPush: info\0"),
		receiver.getPublicKey(),
		senderKey,
	]);
	const inputKey = Buffer.from(
		hkdfSync("sha256", shared, fromBase64url(subscription.keys.auth), keyInfo, 32),
	);
	const contentKey = Buffer.from(
		hkdfSync("sha256", inputKey, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16),
	);
	const nonce = Buffer.from(
		hkdfSync("sha256", inputKey, salt, Buffer.from("Content-Encoding: nonce\0"), 12),
	);
	const decipher = createDecipheriv("aes-128-gcm", contentKey, nonce);
	decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
	const padded = Buffer.concat([
		decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
		decipher.final(),
	]);
	// The last record ends with 0x02 and any zeros of padding.
	let end = padded.length - 1;
	while (end >= 0 && padded[end] === 0) end -= 1;
	if (padded[end] !== 2) throw new PushCheckError("no last-record delimiter");
	return padded.subarray(0, end);
}

/**
 * A push service on 127.0.0.1 standing in for a browser vendor's: it makes subscriptions as a
 * browser would, checks each message's VAPID Authorization, decrypts its aes128gcm body with the
 * subscription's own keys and answers 201, or what `answer` says (410, 429, 503...). A message
 * that fails a check is answered 400 and recorded under `refused`.
 */
export async function startPushService(
	answer: (requestNumber: number, endpoint: string) => PushServiceAnswer = () => ({ status: 201 }),
) {
	const subscriptions = new Map<string, TestPushSubscription>();
	const received: ReceivedPush[] = [];
	const refused: string[] = [];
	const counts = new Map<string, number>();
	let origin = "";
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const endpoint = `${origin}${request.url ?? "/"}`;
			const number = (counts.get(endpoint) ?? 0) + 1;
			counts.set(endpoint, number);
			const planned = answer(number, endpoint);
			const subscription = subscriptions.get(endpoint);
			try {
				if (request.method !== "POST") throw new PushCheckError(`method ${request.method}`);
				if (!subscription) throw new PushCheckError("no such subscription");
				if (request.headers["content-encoding"] !== "aes128gcm") {
					throw new PushCheckError("not aes128gcm");
				}
				const { key, claims } = checkVapid(request.headers.authorization, origin);
				const body = Buffer.concat(chunks);
				if (body.length > 4096) throw new PushCheckError("body over 4096 bytes");
				const message = JSON.parse(decrypt(body, subscription).toString("utf8")) as unknown;
				if (planned.status >= 200 && planned.status < 300) {
					received.push({
						endpoint,
						message,
						bodyBytes: body.length,
						ttl: Number(request.headers.ttl),
						vapidKey: key,
						claims,
						receivedAt: Date.now(),
					});
				}
			} catch (error) {
				refused.push(error instanceof Error ? error.message : String(error));
				response.writeHead(400);
				response.end();
				return;
			}
			response.writeHead(planned.status, planned.headers ?? {});
			response.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		/** A new subscription of this service, as PushManager.subscribe() gives a page. */
		subscribe(): TestPushSubscription {
			const keys = createECDH("prime256v1");
			keys.generateKeys();
			const subscription = {
				endpoint: `${origin}/push/${randomBytes(12).toString("hex")}`,
				keys: {
					p256dh: keys.getPublicKey().toString("base64url"),
					auth: randomBytes(16).toString("base64url"),
				},
				privateKey: keys.getPrivateKey(),
			};
			subscriptions.set(subscription.endpoint, subscription);
			return subscription;
		},
		/** The messages taken (answered 2xx), in order. */
		received: () => [...received],
		/** Why messages were refused (a failed check), in order. */
		refused: () => [...refused],
		/** How many requests came for an endpoint, whatever they were answered. */
		requestsFor: (endpoint: string) => counts.get(endpoint) ?? 0,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
