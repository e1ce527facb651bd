import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer } from "../server";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { createTestSettings, TEST_ADMIN_EMAIL } from "../testing/test-settings";

type SessionBody = { user: { email: string; isAdmin: boolean } } | null;

describe.each(availableDatabaseKinds())("accounts on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server.close();
	});

	it("signs a new person up, keeps them signed in, and signs them out", async () => {
		const { client, email } = await createTestUser(server);

		const session = await client.request("/api/auth/get-session");
		expect(session.status).toBe(200);
		const body = (await session.json()) as SessionBody;
		expect(body?.user.email).toBe(email);
		expect(body?.user.isAdmin).toBe(false);

		const signOut = await client.request("/api/auth/sign-out", { method: "POST", json: {} });
		expect(signOut.status).toBe(200);
		const after = await client.request("/api/auth/get-session");
		expect(await after.json()).toBeNull();
	});

	it("issues an HttpOnly, SameSite session cookie that is not Secure over http", async () => {
		const client = new TestClient(server);
		const response = await client.request("/api/auth/sign-up/email", {
			method: "POST",
			json: { email: `cookie-${Date.now()}@example.com`, password: "secret12", name: "cookie" },
		});
		expect(response.status).toBe(200);
		const cookie = response.headers.getSetCookie().find((value) => value.includes("session_token"));
		expect(cookie).toMatch(/HttpOnly/i);
		expect(cookie).toMatch(/SameSite=Lax/i);
		expect(cookie).not.toMatch(/Secure/i);
	});

	it("signs in again with the right password and refuses a wrong one with a message", async () => {
		const { email, password } = await createTestUser(server);
		const client = new TestClient(server);

		const wrong = await client.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email, password: "not the password" },
		});
		expect(wrong.status).toBe(401);
		expect(((await wrong.json()) as { message: string }).message).toMatch(
			/invalid email or password/i,
		);

		const right = await client.request("/api/auth/sign-in/email", {
			method: "POST",
			json: { email, password },
		});
		expect(right.status).toBe(200);
		const session = (await (await client.request("/api/auth/get-session")).json()) as SessionBody;
		expect(session?.user.email).toBe(email);
	});

	it("refuses a password shorter than 6 characters", async () => {
		const client = new TestClient(server);
		const response = await client.request("/api/auth/sign-up/email", {
			method: "POST",
			json: { email: `short-${Date.now()}@example.com`, password: "12345", name: "short" },
		});
		expect(response.status).toBe(400);
		expect(((await response.json()) as { message: string }).message).toMatch(/password too short/i);
	});

	it("refuses a second account with the same e-mail", async () => {
		const { email } = await createTestUser(server);
		const client = new TestClient(server);
		const response = await client.request("/api/auth/sign-up/email", {
			method: "POST",
			json: { email, password: "another password", name: "again" },
		});
		expect(response.status).toBe(422);
	});

	it("marks the configured administrator, once claimed, matching the e-mail trimmed and lowercased", async () => {
		const { client } = await createTestAdministrator(server, {
			email: TEST_ADMIN_EMAIL.toUpperCase(),
		});
		const session = (await (await client.request("/api/auth/get-session")).json()) as SessionBody;
		expect(session?.user.email).toBe(TEST_ADMIN_EMAIL);
		expect(session?.user.isAdmin).toBe(true);
	});

	it("rejects a cookie-carrying request from another origin", async () => {
		const { client } = await createTestUser(server);
		const response = await client.request("/api/auth/sign-out", {
			method: "POST",
			headers: { origin: "https://evil.example" },
			json: {},
		});
		expect(response.status).toBe(403);
		const session = (await (await client.request("/api/auth/get-session")).json()) as SessionBody;
		expect(session?.user).toBeDefined();
	});

	it("says clearly that Google sign-in is not configured", async () => {
		const client = new TestClient(server);
		const response = await client.request("/api/auth/sign-in/social", {
			method: "POST",
			json: { provider: "google", callbackURL: "/" },
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			success: false,
			error: {
				code: "GOOGLE_NOT_CONFIGURED",
				message: "Google sign-in is not configured on this server.",
			},
		});
	});
});

describe.each(availableDatabaseKinds())("sign-in rate limiting on %s", (kind) => {
	it("limits sign-in attempts per address, shared through the database by every server process", async () => {
		const first = await createTestServer(kind, { isRateLimitEnabled: true });
		try {
			// A second app on the same database stands for a second server process.
			const second = await assembleServer({
				database: first.database,
				logger: createSilentLogger(),
				settings: createTestSettings({ isRateLimitEnabled: true }),
				storage: first.storage,
				models: createLocalProvider({ delayMs: 0 }),
				isWorkerEnabled: false,
			});
			const attackerOnFirst = new TestClient(first, "198.51.100.7");
			const attackerOnSecond = new TestClient(second, "198.51.100.7");
			const statuses: number[] = [];
			for (let attempt = 0; attempt < 12; attempt++) {
				const client = attempt % 2 === 0 ? attackerOnFirst : attackerOnSecond;
				const response = await client.request("/api/auth/sign-in/email", {
					method: "POST",
					json: { email: "nobody@example.com", password: "wrong password" },
				});
				statuses.push(response.status);
			}
			expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
			expect(statuses.slice(10)).toEqual([429, 429]);

			const someoneElse = new TestClient(first, "198.51.100.8");
			const other = await someoneElse.request("/api/auth/sign-in/email", {
				method: "POST",
				json: { email: "nobody@example.com", password: "wrong password" },
			});
			expect(other.status).toBe(401);
			await second.stop();
		} finally {
			await first.close();
		}
	});
});
