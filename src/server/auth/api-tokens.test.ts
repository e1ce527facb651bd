import { Ajv2020 } from "ajv/dist/2020";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
	ApiTokenListSchema,
	type ApiTokenScope,
	CreatedApiTokenSchema,
} from "../../shared/api-tokens";
import { ERRORS } from "../../shared/errors";
import { CreateGenerationResponseSchema, PollResponseSchema } from "../../shared/generations";
import { UploadResponseSchema } from "../../shared/image-input";
import type { ApiOperation } from "../http/api-operations";
import { API_OPERATIONS } from "../http/openapi-document";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const RATE_LIMIT = 30;
const PROMPT = "A lighthouse at dusk";

async function createToken(
	person: Person,
	scopes: ApiTokenScope[],
	expiresInDays: 30 | 90 | 365 | null = 30,
	name = "script",
) {
	const response = await person.client.request("/api/account/tokens", {
		method: "POST",
		json: { name, scopes, expiresInDays },
	});
	expect(response.status).toBe(201);
	return CreatedApiTokenSchema.parse(await response.json());
}

/** A request from a script: the token and nothing else (no cookie, no Origin). */
function callWithToken(
	server: TestServer,
	token: string,
	path: string,
	init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
	const headers = new Headers(init.headers);
	headers.set("authorization", `Bearer ${token}`);
	let body = init.body;
	if (init.json !== undefined) {
		headers.set("content-type", "application/json");
		body = JSON.stringify(init.json);
	}
	return Promise.resolve(server.app.request(path, { ...init, headers, body }));
}

async function makeFinishedGeneration(person: Person) {
	const created = await requestGeneration(person.client, PROMPT, "--ar 1:1", { count: 1 });
	expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
	return readGeneration(person.client, created.id);
}

/** A request for an operation, about one of the person's finished generations. */
async function requestOperation(
	server: TestServer,
	person: Person,
	token: string,
	operation: ApiOperation,
): Promise<Response> {
	if (operation.path.startsWith("/api/uploads")) {
		return requestUploadOperation(server, person, token, operation);
	}
	const generation = await makeFinishedGeneration(person);
	const image = generation.images[0]?.url ?? "";
	const [, , , , , run = "", file = ""] = image.split("/");
	const path = operation.path
		.replace("{id}", generation.id)
		.replace("{index}", "0")
		.replace("{run}", run)
		.replace("{file}", file);
	const body =
		operation.body === undefined
			? undefined
			: operation.path.endsWith("/favorite")
				? { favorite: true }
				: operation.path === "/api/generations"
					? { prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 }
					: { ids: [generation.id] };
	return callWithToken(server, token, path, {
		method: operation.method.toUpperCase(),
		...(body === undefined ? {} : { json: body }),
	});
}

/** A small PNG in a multipart form's field `image`, as POST /api/uploads takes it. */
async function pngForm(): Promise<FormData> {
	const png = await sharp({
		create: { width: 8, height: 8, channels: 3, background: "#2e86c1" },
	})
		.png()
		.toBuffer();
	const form = new FormData();
	form.set("image", new File([png], "reference.png", { type: "image/png" }));
	return form;
}

/** A request for an upload operation, about an image the person uploaded in their browser. */
async function requestUploadOperation(
	server: TestServer,
	person: Person,
	token: string,
	operation: ApiOperation,
): Promise<Response> {
	if (operation.method === "post") {
		return callWithToken(server, token, operation.path, { method: "POST", body: await pngForm() });
	}
	const uploaded = await person.client.request("/api/uploads", {
		method: "POST",
		body: await pngForm(),
	});
	const { uploadId } = z.parse(UploadResponseSchema, await uploaded.json());
	return callWithToken(server, token, operation.path.replace("{id}", uploadId));
}

/**
 * Checks answers against the live OpenAPI document, as a client generated from it would read
 * them: JSON Schema 2020-12, as OpenAPI 3.1 writes it.
 */
async function readDocumentValidator(server: TestServer) {
	const document: unknown = await (await server.app.request("/api/openapi.json")).json();
	const ajv = new Ajv2020({ strict: false, allErrors: true });
	ajv.addSchema(document as object, "openapi");
	return (operation: ApiOperation, status: number, body: unknown): string[] => {
		const pointer = ["paths", operation.path, operation.method, "responses", String(status)]
			.concat(["content", "application/json", "schema"])
			.map((token) => encodeURIComponent(token.replaceAll("~", "~0").replaceAll("/", "~1")))
			.join("/");
		const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
		return validate(body)
			? []
			: (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
	};
}

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

	it("lets each scope call its routes and answers 403 naming the scope elsewhere", async () => {
		const validateAgainstDocument = await readDocumentValidator(server);
		const person = await createTestUser(server);
		const tokens = {
			generate: (await createToken(person, ["generate"])).token,
			read: (await createToken(person, ["read"])).token,
			delete: (await createToken(person, ["delete"])).token,
		};
		const outcomes: string[] = [];
		for (const operation of API_OPERATIONS) {
			for (const scope of ["generate", "read", "delete"] as const) {
				const allowed = operation.access.isOpen || operation.access.scopes.includes(scope);
				const response = await requestOperation(server, person, tokens[scope], operation);
				if (allowed) {
					expect(response.status, `${operation.id} with ${scope}`).toBe(operation.success.status);
					const { answer } = operation.success;
					// The live answer matches the schema the document was built from, and the
					// document itself, as a client generated from it reads it.
					if ("schema" in answer) {
						const body: unknown = await response.json();
						z.parse(answer.schema, body);
						expect(validateAgainstDocument(operation, response.status, body)).toEqual([]);
					} else
						expect(response.headers.get("content-type")).toMatch(/^(image\/|application\/zip)/);
				} else {
					const message = await expectErrorEnvelope(response, 403, "TOKEN_SCOPE_MISSING");
					for (const needed of operation.access.scopes) expect(message).toContain(`"${needed}"`);
				}
				outcomes.push(`${operation.id}:${scope}:${allowed ? "yes" : "no"}`);
			}
		}
		expect(outcomes).toContain("createGeneration:generate:yes");
		expect(outcomes).toContain("createGeneration:read:no");
		expect(outcomes).toContain("pollGeneration:read:yes");
		expect(outcomes).toContain("deleteGeneration:read:no");
		expect(outcomes).toContain("deleteGenerations:delete:yes");
		expect(outcomes).toContain("listGenerations:generate:no");
		expect(outcomes).toContain("uploadImage:generate:yes");
		expect(outcomes).toContain("uploadImage:read:no");
		expect(outcomes).toContain("readUploadImage:read:yes");
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
			const { token } = await createToken(person, ["generate", "read"]);
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
				.filter((route) => /^\/api\/(generations|images|models|uploads)/.test(route.path))
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
