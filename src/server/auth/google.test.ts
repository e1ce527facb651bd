import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_GOOGLE_USER, type FakeGoogle, startFakeGoogle } from "../testing/fakes/google";
import { createTestServer, TestClient, type TestServer } from "../testing/test-server";

describe("Continue with Google (OpenID Connect, authorization code with PKCE)", () => {
	let google: FakeGoogle;
	let server: TestServer;

	beforeAll(async () => {
		google = await startFakeGoogle();
		server = await createTestServer("pglite", {
			google: {
				clientId: "atelier-test-client",
				clientSecret: "atelier-test-secret",
				discoveryUrl: google.discoveryUrl,
			},
		});
	});
	afterAll(async () => {
		await server.close();
		await google.stop();
	});

	it("sends the person to the provider and signs them in when they come back", async () => {
		const client = new TestClient(server);
		const start = await client.request("/api/auth/sign-in/social", {
			method: "POST",
			json: { provider: "google", callbackURL: "/" },
		});
		expect(start.status).toBe(200);
		const { url } = (await start.json()) as { url: string };
		const authorizeUrl = new URL(url);
		expect(authorizeUrl.origin).toBe(google.issuerUrl);
		expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
		expect(authorizeUrl.searchParams.get("code_challenge")).toBeTruthy();
		expect(authorizeUrl.searchParams.get("scope")).toContain("openid");

		// The provider authenticates the person and redirects back with a code.
		const authorize = await fetch(authorizeUrl, { redirect: "manual" });
		expect(authorize.status).toBe(302);
		const callback = new URL(authorize.headers.get("location") ?? "");
		expect(callback.pathname).toBe("/api/auth/callback/google");

		const finish = await client.request(`${callback.pathname}${callback.search}`);
		expect(finish.status).toBe(302);
		expect(finish.headers.get("location")).toBe("/");

		const session = (await (await client.request("/api/auth/get-session")).json()) as {
			user: { email: string; isAdmin: boolean };
		};
		expect(session.user.email).toBe(FAKE_GOOGLE_USER.email);
		expect(session.user.isAdmin).toBe(false);
	});

	it("refuses a callback whose state was not issued to this browser", async () => {
		const starter = new TestClient(server);
		const start = await starter.request("/api/auth/sign-in/social", {
			method: "POST",
			json: { provider: "google", callbackURL: "/" },
		});
		const { url } = (await start.json()) as { url: string };
		const authorize = await fetch(url, { redirect: "manual" });
		const callback = new URL(authorize.headers.get("location") ?? "");

		const stranger = new TestClient(server);
		const finish = await stranger.request(`${callback.pathname}${callback.search}`);
		expect(finish.status).toBe(302);
		expect(finish.headers.get("location")).toMatch(/error=/);
		const session = await (await stranger.request("/api/auth/get-session")).json();
		expect(session).toBeNull();
	});
});
