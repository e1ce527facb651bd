import { createECDH, hkdfSync } from "node:crypto";

/** The key pair push services know this server by (RFC 8292), both in base64url. */
export type VapidKeys = { publicKey: string; privateKey: string };

/** The public key of a P-256 private key; throws when it is not one. */
function publicKeyOf(privateKey: Buffer): Buffer {
	const curve = createECDH("prime256v1");
	curve.setPrivateKey(privateKey);
	return curve.getPublicKey();
}

/**
 * The VAPID keys every process sharing the server's secret derives alike (decision 028): nothing
 * more to keep, nothing to share between processes, and a new secret (which signs everyone out)
 * makes new keys. The secret is HKDF's input; a derived value outside the curve's range (about
 * one in 2^32) is skipped for the next.
 */
export function deriveVapidKeys(secret: string): VapidKeys {
	for (let counter = 0; ; counter += 1) {
		const candidate = Buffer.from(
			hkdfSync("sha256", secret, "atelier-web-push", `vapid-key-${counter}`, 32),
		);
		try {
			return {
				publicKey: publicKeyOf(candidate).toString("base64url"),
				privateKey: candidate.toString("base64url"),
			};
		} catch {
			// Zero or not below the curve's order: take the next.
		}
	}
}

/** Whether VAPID_PRIVATE_KEY is the private key of VAPID_PUBLIC_KEY. */
export function isVapidKeyPair(keys: VapidKeys): boolean {
	try {
		return (
			publicKeyOf(Buffer.from(keys.privateKey, "base64url")).toString("base64url") ===
			keys.publicKey
		);
	} catch {
		return false;
	}
}
