import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { countWebhooks, makeHoldings, tokenStatus } from "../testing/account-holdings-kit";
import { FAKE_GOOGLE_USER, type FakeGoogle, startFakeGoogle } from "../testing/fakes/google";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { TEST_ADMIN_EMAIL } from "../testing/test-settings";

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

/** Continue with Google in `client`, through the fake provider: where the callback sends it. */
async function followGoogle(client: TestClient): Promise<string | null> {
	const start = await client.request("/api/auth/sign-in/social", {
		method: "POST",
		json: { provider: "google", callbackURL: "/" },
	});
	const { url } = (await start.json()) as { url: string };
	const authorize = await fetch(url, { redirect: "manual" });
	const callback = new URL(authorize.headers.get("location") ?? "");
	const finish = await client.request(`${callback.pathname}${callback.search}`);
	return finish.headers.get("location");
}

/** Continue with Google in `client`, through the fake provider, to the landing page. */
async function continueWithGoogle(client: TestClient): Promise<void> {
	expect(await followGoogle(client)).toBe("/");
}

describe.each(availableDatabaseKinds())(
	"Google over an unverified password account on %s",
	(kind) => {
		describe.each([
			{ name: "an ordinary address", adminEmail: TEST_ADMIN_EMAIL, isAdmin: false },
			{ name: "the administrator's address", adminEmail: FAKE_GOOGLE_USER.email, isAdmin: true },
		])("$name", ({ adminEmail, isAdmin }) => {
			let google: FakeGoogle;
			let server: TestServer;

			beforeAll(async () => {
				google = await startFakeGoogle();
				server = await createTestServer(kind, {
					adminEmail,
					google: {
						clientId: "atelier-test-client",
						clientSecret: "atelier-test-secret",
						discoveryUrl: google.discoveryUrl,
					},
					webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, resolveHost: async () => ["93.184.215.14"] },
				});
			});
			afterAll(async () => {
				await server.close();
				await google.stop();
			});

			it("takes the account over: the earlier password, sessions, tokens and webhooks end", async () => {
				const squatter = await createTestUser(server, { email: FAKE_GOOGLE_USER.email });
				const { token } = await makeHoldings(squatter.client);
				expect(await readSession(squatter.client)).toMatchObject({ user: { isAdmin: false } });

				const owner = new TestClient(server, "198.51.100.40");
				await continueWithGoogle(owner);
				expect(await readSession(owner)).toMatchObject({
					user: { email: FAKE_GOOGLE_USER.email, isAdmin, emailVerified: true },
				});
				expect((await owner.request("/api/admin/people")).status).toBe(isAdmin ? 200 : 404);

				expect(await readSession(squatter.client)).toBeNull();
				const signIn = await new TestClient(server, "198.51.100.41").request(
					"/api/auth/sign-in/email",
					{ method: "POST", json: { email: squatter.email, password: squatter.password } },
				);
				expect(signIn.status).toBe(401);
				expect(await tokenStatus(server, token)).toBe(401);
				expect(await countWebhooks(owner)).toBe(0);

				// A later Google sign-in changes nothing of what the owner made since.
				const { token: ownersToken } = await makeHoldings(owner);
				await continueWithGoogle(new TestClient(server, "198.51.100.42"));
				expect(await tokenStatus(server, ownersToken)).toBe(200);
				expect(await readSession(owner)).not.toBeNull();
			});
		});
	},
);

async function readSession(client: TestClient) {
	return (await (await client.request("/api/auth/get-session")).json()) as {
		user: { email: string; isAdmin: boolean; emailVerified: boolean };
	} | null;
}

describe.each(availableDatabaseKinds())(
	"Google that does not vouch for the address, over an unverified password account, on %s",
	(kind) => {
		let google: FakeGoogle;
		let server: TestServer;

		beforeAll(async () => {
			google = await startFakeGoogle(0, { isEmailVerified: false });
			server = await createTestServer(kind, {
				adminEmail: FAKE_GOOGLE_USER.email,
				google: {
					clientId: "atelier-test-client",
					clientSecret: "atelier-test-secret",
					discoveryUrl: google.discoveryUrl,
				},
				webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, resolveHost: async () => ["93.184.215.14"] },
			});
		});
		afterAll(async () => {
			await server.close();
			await google.stop();
		});

		it("links nothing and takes nothing over: the account, its password and its token stay", async () => {
			const holder = await createTestUser(server, { email: FAKE_GOOGLE_USER.email });
			const { token } = await makeHoldings(holder.client);

			const stranger = new TestClient(server, "198.51.100.50");
			expect(await followGoogle(stranger)).toMatch(/error=/);

			expect(await readSession(stranger)).toBeNull();
			expect(await readSession(holder.client)).toMatchObject({ user: { isAdmin: false } });
			expect(await tokenStatus(server, token)).toBe(200);
			const signIn = await new TestClient(server, "198.51.100.51").request(
				"/api/auth/sign-in/email",
				{ method: "POST", json: { email: holder.email, password: holder.password } },
			);
			expect(signIn.status).toBe(200);
		});
	},
);
