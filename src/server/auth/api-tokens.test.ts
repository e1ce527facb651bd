import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	API_TOKEN_LIMIT_MESSAGE,
	ApiTokenListSchema,
	MAX_ACTIVE_API_TOKENS,
} from "../../shared/account/api-tokens";
import { ERRORS } from "../../shared/core/errors";
import {
	CreateGenerationResponseSchema,
	PollResponseSchema,
} from "../../shared/generations/generations";
import { API_OPERATIONS } from "../openapi/openapi-document";
import { callWithToken, createToken, PROMPT, pngForm } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { createApiToken } from "./api-tokens";

const RATE_LIMIT = 30;

describe.each(availableDatabaseKinds())("personal API tokens on %s", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		server = await createTestServer(kind, {
			apiTokenRequestsPerMinute: RATE_LIMIT,
			limits: { maxActivePerUser: 50, dailyLimitPerUser: 0 },
		});
	});
	afterAll(async () => {
		await server?.close();
	});

	it("shows a new token once, lists it without the token, and keeps only its hash", async () => {
		const person = await createTestUser(server);
		const created = await createToken(person, ["generate", "read"], 90, "nightly bot");
		expect(created.token).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
		expect(created).toMatchObject({
			name: "nightly bot",
			scopes: ["generate", "read"],
			lastUsedAt: null,
		});
		const lifetimeDays =
			(Date.parse(created.expiresAt ?? "") - Date.parse(created.createdAt)) / 86_400_000;
		expect(lifetimeDays).toBe(90);

		const listed = ApiTokenListSchema.parse(
			await (await person.client.request("/api/account/tokens")).json(),
		);
		expect(listed.tokens).toEqual([
			{
				id: created.id,
				name: "nightly bot",
				scopes: ["generate", "read"],
				createdAt: created.createdAt,
				lastUsedAt: null,
				expiresAt: created.expiresAt,
			},
		]);
		const stored = await sql<
			Record<string, unknown>
		>`select * from api_tokens where id = ${created.id}`.execute(server.database.db);
		expect(JSON.stringify(stored.rows)).not.toContain(created.token);
		expect(JSON.stringify(stored.rows)).not.toContain(created.token.slice(4));
	});

	it("makes a token without expiry when asked for none, and refuses other lifetimes and scopes", async () => {
		const person = await createTestUser(server);
		expect((await createToken(person, ["read"], null)).expiresAt).toBeNull();
		for (const body of [
			{ name: "x", scopes: ["read"], expiresInDays: 7 },
			{ name: "x", scopes: ["admin"], expiresInDays: 30 },
			{ name: "x", scopes: [], expiresInDays: 30 },
			{ name: " ", scopes: ["read"], expiresInDays: 30 },
		]) {
			const response = await person.client.request("/api/account/tokens", {
				method: "POST",
				json: body,
			});
			await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
		}
	});

	it("starts a generation, follows it and fetches its image with a token alone", async () => {
		const person = await createTestUser(server);
		const { token, id } = await createToken(person, ["generate", "read"]);
		// From a script's own origin, or none: a token request is not held to the cookie's Origin check.
		const started = await callWithToken(server, token, "/api/generations", {
			method: "POST",
			headers: { origin: "https://elsewhere.example" },
			json: { prompt: PROMPT, aspectRatio: "--ar 3:2", count: 1 },
		});
		expect(started.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await started.json());
		if (!created.success) throw new Error(created.error.message);

		let poll = PollResponseSchema.parse(
			await (await callWithToken(server, token, `${created.pollingUrl}?wait=5000`)).json(),
		);
		while (poll.status !== "completed" && poll.status !== "failed") {
			poll = PollResponseSchema.parse(
				await (await callWithToken(server, token, `${created.pollingUrl}?wait=5000`)).json(),
			);
		}
		expect(poll.status).toBe("completed");
		const image = await callWithToken(server, token, poll.results[0] ?? "");
		expect(image.status).toBe(200);
		expect(image.headers.get("content-type")).toMatch(/^image\//);

		const listed = ApiTokenListSchema.parse(
			await (await person.client.request("/api/account/tokens")).json(),
		);
		expect(listed.tokens.find((entry) => entry.id === id)?.lastUsedAt).not.toBeNull();
	});

	it("answers 401 with the catalogue's message for an unknown, expired or revoked token", async () => {
		const person = await createTestUser(server);
		const expired = await createToken(person, ["read"]);
		await sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${expired.id}`.execute(
			server.database.db,
		);
		const revoked = await createToken(person, ["read"]);
		expect((await callWithToken(server, revoked.token, "/api/generations")).status).toBe(200);
		const revoke = await person.client.request(`/api/account/tokens/${revoked.id}`, {
			method: "DELETE",
		});
		expect(revoke.status).toBe(200);

		for (const token of ["atl_not-a-token", "nonsense", expired.token, revoked.token]) {
			const response = await callWithToken(server, token, "/api/generations");
			expect(await expectErrorEnvelope(response, 401, "AUTH_ERROR")).toBe(
				ERRORS.AUTH_ERROR.message,
			);
		}
		// A signed-in browser that sends a bad token is answered for the token, not the cookie.
		const withCookie = await person.client.request("/api/generations", {
			headers: { authorization: `Bearer ${revoked.token}` },
		});
		await expectErrorEnvelope(withCookie, 401, "AUTH_ERROR");
	});

	it("never lets a token manage tokens or the account, nor read the audit log", async () => {
		const person = await createTestUser(server);
		const { token, id } = await createToken(person, ["generate", "read", "delete"]);
		const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
			["/api/account/tokens", { method: "GET" }],
			[
				"/api/account/tokens",
				{ method: "POST", json: { name: "x", scopes: ["read"], expiresInDays: 30 } },
			],
			[`/api/account/tokens/${id}`, { method: "DELETE" }],
			["/api/account/export", { method: "GET" }],
			["/api/account/delete", { method: "POST", json: { email: person.email } }],
			["/api/auth/get-session", { method: "GET" }],
			["/api/admin/audit-log", { method: "GET" }],
		];
		for (const [path, init] of attempts) {
			await expectErrorEnvelope(
				await callWithToken(server, token, path, init),
				403,
				"TOKEN_NOT_ALLOWED",
			);
		}
		expect((await callWithToken(server, token, "/api/generations")).status).toBe(200);
	});

	it("holds a person to MAX_ACTIVE_API_TOKENS tokens that have not expired, even asked at once", async () => {
		const person = await createTestUser(server);
		const made = await Promise.all(
			Array.from({ length: MAX_ACTIVE_API_TOKENS - 1 }, (_, index) =>
				createToken(person, ["read"], 30, `bot ${index}`),
			),
		);
		const mint = () =>
			person.client.request("/api/account/tokens", {
				method: "POST",
				json: { name: "one more", scopes: ["read"], expiresInDays: 30 },
			});
		// Two at once for the last place: one is made, the other refused.
		const racing = await Promise.all([mint(), mint()]);
		expect(racing.map((response) => response.status).sort()).toEqual([201, 400]);
		const refused = racing.find((response) => response.status === 400);
		if (!refused) throw new Error("no request was refused");
		expect(await expectErrorEnvelope(refused, 400, "VALIDATION_ERROR")).toBe(
			API_TOKEN_LIMIT_MESSAGE,
		);
		expect(API_TOKEN_LIMIT_MESSAGE).toContain(String(MAX_ACTIVE_API_TOKENS));
		const listed = ApiTokenListSchema.parse(
			await (await person.client.request("/api/account/tokens")).json(),
		);
		expect(listed.tokens).toHaveLength(MAX_ACTIVE_API_TOKENS);
		await expectErrorEnvelope(await mint(), 400, "VALIDATION_ERROR");

		// An expired token no longer counts, nor does a revoked one.
		const [first, second] = made;
		if (!first || !second) throw new Error("tokens missing");
		await sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${first.id}`.execute(
			server.database.db,
		);
		expect((await mint()).status).toBe(201);
		await expectErrorEnvelope(await mint(), 400, "VALIDATION_ERROR");
		const revoke = await person.client.request(`/api/account/tokens/${second.id}`, {
			method: "DELETE",
		});
		expect(revoke.status).toBe(200);
		expect((await mint()).status).toBe(201);
		// Someone else's tokens are their own count.
		const other = await createTestUser(server);
		expect((await createToken(other, ["read"])).scopes).toEqual(["read"]);
	});

	it("revokes only the person's own tokens", async () => {
		const owner = await createTestUser(server);
		const stranger = await createTestUser(server);
		const { token, id } = await createToken(owner, ["read"]);
		const response = await stranger.client.request(`/api/account/tokens/${id}`, {
			method: "DELETE",
		});
		await expectErrorEnvelope(response, 404, "NOT_FOUND");
		expect((await callWithToken(server, token, "/api/generations")).status).toBe(200);
	});

	it("limits each token's requests a minute, with Retry-After and the RateLimit fields", async () => {
		const person = await createTestUser(server);
		const { token } = await createToken(person, ["read"]);
		const other = await createToken(person, ["read"]);
		for (let index = 1; index <= RATE_LIMIT; index++) {
			const response = await callWithToken(server, token, "/api/generations?limit=1");
			expect(response.status).toBe(200);
			expect(response.headers.get("ratelimit-policy")).toBe(`"per-token";q=${RATE_LIMIT};w=60`);
			expect(response.headers.get("ratelimit")).toMatch(
				new RegExp(`^"per-token";r=${RATE_LIMIT - index};t=\\d+$`),
			);
		}
		const refused = await callWithToken(server, token, "/api/generations?limit=1");
		await expectErrorEnvelope(refused, 429, "RATE_LIMITED");
		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect(refused.headers.get("ratelimit")).toMatch(/^"per-token";r=0;t=\d+$/);
		// Each token counts on its own.
		expect((await callWithToken(server, other.token, "/api/generations?limit=1")).status).toBe(200);
	});

	it("makes one generation for one Idempotency-Key, even for two requests at once", async () => {
		const person = await createTestUser(server);
		const { token } = await createToken(person, ["generate", "read"]);
		const body = { prompt: `${PROMPT}, once`, aspectRatio: "--ar 1:1", count: 1 };
		const send = (json: unknown, key = "nightly-2026-01-15") =>
			callWithToken(server, token, "/api/generations", {
				method: "POST",
				headers: { "idempotency-key": key },
				json,
			});
		const answers = await Promise.all([send(body), send(body)]);
		const ids = await Promise.all(
			answers.map(async (answer) => {
				expect(answer.status).toBe(201);
				const created = CreateGenerationResponseSchema.parse(await answer.json());
				if (!created.success) throw new Error(created.error.message);
				return created.id;
			}),
		);
		expect(ids[0]).toBe(ids[1]);
		const replayed = answers.map((answer) => answer.headers.get("idempotent-replayed") ?? "new");
		expect(replayed.sort()).toEqual(["new", "true"]);

		const again = await send(body);
		expect(CreateGenerationResponseSchema.parse(await again.json())).toMatchObject({ id: ids[0] });
		const rows = await server.database.db
			.selectFrom("generations")
			.select("id")
			.where("user_id", "=", person.userId)
			.execute();
		expect(rows.map((row) => row.id)).toEqual([ids[0]]);

		// The same key with another request is a mistake no retry can fix: 422.
		await expectErrorEnvelope(
			await send({ ...body, prompt: "Something else" }),
			422,
			"IDEMPOTENCY_KEY_REUSED",
		);
		// Another key, or another person's same key, is a new generation.
		const fresh = CreateGenerationResponseSchema.parse(await (await send(body, "another")).json());
		expect(fresh).toMatchObject({ success: true });
		expect(fresh.success && fresh.id).not.toBe(ids[0]);
	});

	it("counts a replayed generation once against the quota", async () => {
		const quotaServer = await createTestServer(kind, {
			limits: { maxActivePerUser: 3, dailyLimitPerUser: 1 },
		});
		try {
			const person = await createTestUser(quotaServer);
			const body = { prompt: `${PROMPT}, counted`, aspectRatio: "--ar 1:1", count: 1 };
			const send = (key: string) =>
				person.client.request("/api/generations", {
					method: "POST",
					headers: { "idempotency-key": key },
					json: body,
				});
			const first = await send('"quota-key"');
			expect(first.status).toBe(201);
			const created = CreateGenerationResponseSchema.parse(await first.json());
			// The quota of one a day is spent, yet the same key still answers with its generation.
			for (let attempt = 0; attempt < 3; attempt++) {
				const replay = await send("quota-key");
				expect(replay.status).toBe(201);
				expect(CreateGenerationResponseSchema.parse(await replay.json())).toEqual(created);
			}
			await expectErrorEnvelope(await send("another-key"), 429, "QUOTA_EXCEEDED");
		} finally {
			await quotaServer.close();
		}
	});

	it("holds a token to the owner's unverified address when verification is required", async () => {
		const verifyingServer = await createTestServer(kind, { requireEmailVerification: true });
		try {
			const person = await createTestUser(verifyingServer);
			// Minting one needs a verified address too: this token was made before the operator
			// turned verification on.
			const { token } = await createApiToken(verifyingServer.database.db, person.userId, {
				name: "older script",
				scopes: ["generate", "read"],
				expiresInDays: 30,
			});
			await expectErrorEnvelope(
				await person.client.request("/api/account/tokens", {
					method: "POST",
					json: { name: "new script", scopes: ["read"], expiresInDays: 30 },
				}),
				403,
				"EMAIL_NOT_VERIFIED",
			);
			const started = await callWithToken(verifyingServer, token, "/api/generations", {
				method: "POST",
				json: { prompt: PROMPT, aspectRatio: "--ar 1:1" },
			});
			await expectErrorEnvelope(started, 403, "EMAIL_NOT_VERIFIED");
			const uploaded = await callWithToken(verifyingServer, token, "/api/uploads", {
				method: "POST",
				body: await pngForm(),
			});
			await expectErrorEnvelope(uploaded, 403, "EMAIL_NOT_VERIFIED");
			// Reading is allowed meanwhile, as it is in the browser.
			expect((await callWithToken(verifyingServer, token, "/api/generations")).status).toBe(200);
		} finally {
			await verifyingServer.close();
		}
	});

	it("refuses an Idempotency-Key that is empty or too long", async () => {
		const person = await createTestUser(server);
		for (const key of ["", "x".repeat(256)]) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				headers: { "idempotency-key": key },
				json: { prompt: PROMPT, aspectRatio: "--ar 1:1" },
			});
			await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
		}
	});
});

describe("the token routes' table", () => {
	it("names every token route the app serves", async () => {
		const server = await createTestServer("pglite");
		try {
			const documented = new Set(
				API_OPERATIONS.map(
					(operation) =>
						`${operation.method.toUpperCase()} ${operation.path.replace(/\{(\w+)\}/g, ":$1")}`,
				),
			);
			const served = server.app.routes
				.filter((route) =>
					/^\/api\/(boards|generations|images|models|uploads|shares|s\/|signed-files|styles|prompts|trash)/.test(
						route.path,
					),
				)
				.filter((route) => route.method !== "ALL")
				.map((route) => `${route.method} ${route.path}`);
			// The images of generations stored before runs had folders keep an older address.
			const legacy = "GET /api/images/generations/:id/:file";
			expect(new Set(served.filter((route) => route !== legacy))).toEqual(documented);
		} finally {
			await server.close();
		}
	});
});
