import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";
const SEAL_VERSION = "v1";

/** A new endpoint's signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function createWebhookSecret(): string {
	return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The key bytes a `whsec_` secret stands for (what the HMAC is keyed with). */
export function webhookSecretKey(secret: string): Buffer {
	return Buffer.from(
		secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
		"base64",
	);
}

// A key of its own for webhook secrets, derived from the server's secret, so the sealed secrets
// share nothing with what Better Auth signs with it.
function sealingKey(serverSecret: string): Buffer {
	return Buffer.from(hkdfSync("sha256", serverSecret, "atelier", "webhook signing secrets", 32));
}

/**
 * Encrypts a signing secret for the database (AES-256-GCM under a key derived from the server's
 * secret): deliveries must sign with it, so it is kept recoverable, but a copy of the database
 * alone does not reveal it.
 */
export function sealWebhookSecret(secret: string, serverSecret: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv("aes-256-gcm", sealingKey(serverSecret), iv);
	const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
	return [SEAL_VERSION, iv, cipher.getAuthTag(), sealed]
		.map((part) => (typeof part === "string" ? part : part.toString("base64")))
		.join(":");
}

/** The signing secret back from `sealWebhookSecret`; throws if it was sealed under another secret. */
export function openWebhookSecret(sealed: string, serverSecret: string): string {
	const [version, iv, tag, data] = sealed.split(":");
	if (version !== SEAL_VERSION || !iv || !tag || !data) {
		throw new Error("A webhook secret is stored in an unknown form");
	}
	const decipher = createDecipheriv(
		"aes-256-gcm",
		sealingKey(serverSecret),
		Buffer.from(iv, "base64"),
	);
	decipher.setAuthTag(Buffer.from(tag, "base64"));
	return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString(
		"utf8",
	);
}
