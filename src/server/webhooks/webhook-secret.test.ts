import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
	createWebhookSecret,
	openWebhookSecret,
	sealWebhookSecret,
	webhookSecretKey,
} from "./webhook-secret";
import { signWebhook } from "./webhook-signature";

const SERVER_SECRET = "a-server-secret-that-is-at-least-32-characters";

describe("webhook secrets", () => {
	it("are whsec_ and the base64 of 32 random bytes, new each time", () => {
		const secret = createWebhookSecret();
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
		expect(webhookSecretKey(secret)).toHaveLength(32);
		expect(createWebhookSecret()).not.toBe(secret);
	});

	it("are sealed so that only the same server secret opens them", () => {
		const secret = createWebhookSecret();
		const sealed = sealWebhookSecret(secret, SERVER_SECRET);
		expect(sealed).not.toContain(secret.slice("whsec_".length));
		expect(sealWebhookSecret(secret, SERVER_SECRET)).not.toBe(sealed);
		expect(openWebhookSecret(sealed, SERVER_SECRET)).toBe(secret);
		expect(() => openWebhookSecret(sealed, `${SERVER_SECRET}-rotated`)).toThrow();
	});

	it("sign as the Standard Webhooks library does, and its verify accepts the signature", () => {
		const secret = createWebhookSecret();
		const body = JSON.stringify({
			type: "webhook.test",
			timestamp: "2026-01-01T00:00:00.000Z",
			data: {},
		});
		const now = Math.floor(Date.now() / 1000);
		const signed = signWebhook({ secret, id: "msg_1", timestampSeconds: now, body });
		expect(signed.headers["webhook-signature"]).toBe(
			new Webhook(secret).sign("msg_1", new Date(now * 1000), body),
		);
		expect(new Webhook(secret).verify(body, signed.headers)).toEqual(JSON.parse(body));
	});
});
