import { createECDH } from "node:crypto";
import { describe, expect, it } from "vitest";
import webPush from "web-push";
import { parseEnv } from "../config/env";
import { deriveVapidKeys, isVapidKeyPair } from "./vapid-keys";

const SECRET = "a-server-secret-that-is-at-least-32-characters";

describe("the VAPID keys", () => {
	it("are derived alike from one secret, differently from another, and form a P-256 pair", () => {
		const keys = deriveVapidKeys(SECRET);
		expect(deriveVapidKeys(SECRET)).toEqual(keys);
		expect(deriveVapidKeys(`${SECRET}!`).publicKey).not.toBe(keys.publicKey);
		expect(Buffer.from(keys.publicKey, "base64url")).toHaveLength(65);
		expect(Buffer.from(keys.privateKey, "base64url")).toHaveLength(32);
		const curve = createECDH("prime256v1");
		curve.setPrivateKey(Buffer.from(keys.privateKey, "base64url"));
		expect(curve.getPublicKey().toString("base64url")).toBe(keys.publicKey);
		expect(isVapidKeyPair(keys)).toBe(true);
	});

	it("tells a configured pair from two keys that do not belong together", () => {
		const generated = webPush.generateVAPIDKeys();
		expect(isVapidKeyPair(generated)).toBe(true);
		const other = webPush.generateVAPIDKeys();
		expect(isVapidKeyPair({ publicKey: generated.publicKey, privateKey: other.privateKey })).toBe(
			false,
		);
		expect(isVapidKeyPair({ publicKey: generated.publicKey, privateKey: "short" })).toBe(false);
	});
});

describe("the Web Push variables", () => {
	it("leave Web Push on by default, and take off", () => {
		const defaults = parseEnv({});
		expect(defaults.ok && defaults.env.WEB_PUSH).toBe("on");
		const off = parseEnv({ WEB_PUSH: "off" });
		expect(off.ok && off.env.WEB_PUSH).toBe("off");
		const bad = parseEnv({ WEB_PUSH: "maybe" });
		expect(bad.ok).toBe(false);
	});

	it("take a VAPID key pair together and a mailto: or https: subject, naming what is wrong", () => {
		const { publicKey, privateKey } = webPush.generateVAPIDKeys();
		const good = parseEnv({
			VAPID_PUBLIC_KEY: publicKey,
			VAPID_PRIVATE_KEY: privateKey,
			VAPID_SUBJECT: "mailto:ops@example.com",
		});
		expect(good.ok).toBe(true);

		const alone = parseEnv({ VAPID_PUBLIC_KEY: publicKey });
		expect(alone.ok).toBe(false);
		if (!alone.ok) expect(alone.problems.join("\n")).toMatch(/VAPID_PRIVATE_KEY: .*set together/);

		const bad = parseEnv({
			VAPID_PUBLIC_KEY: "not-a-key",
			VAPID_PRIVATE_KEY: privateKey,
			VAPID_SUBJECT: "http://example.com",
		});
		expect(bad.ok).toBe(false);
		if (bad.ok) return;
		const names = bad.problems.map((problem) => problem.split(":")[0]).sort();
		expect(names).toEqual(["VAPID_PUBLIC_KEY", "VAPID_SUBJECT"]);
	});
});
