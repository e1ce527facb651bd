import { Ajv2020 } from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApiTokenScope } from "../../shared/account/api-tokens";
import { GenerationPageSchema } from "../../shared/generations/generations";
import { type ApiOperation, BROWSER_ACCESS } from "../http/api-operations";
import { API_OPERATIONS } from "../openapi/openapi-document";
import { DEFAULT_WEBHOOK_SETTINGS } from "../server";
import { DEFAULT_SHARING_SETTINGS } from "../sharing/share-settings";
import {
	callWithToken,
	createToken,
	deletesGenerations,
	makeFinishedGeneration,
	type Person,
	PROMPT,
	pngForm,
	requestOperation,
	withFinishedGenerations,
} from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "../testing/fakes/openai";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestServer,
} from "../testing/test-server";
import { createApiToken } from "./api-tokens";

const SCOPES = [
	"generate",
	"read",
	"delete",
	"organize",
	"share",
] as const satisfies readonly ApiTokenScope[];

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

async function createTokens(person: Person): Promise<Record<ApiTokenScope, string>> {
	return {
		generate: (await createToken(person, ["generate"])).token,
		read: (await createToken(person, ["read"])).token,
		delete: (await createToken(person, ["delete"])).token,
		organize: (await createToken(person, ["organize"])).token,
		share: (await createToken(person, ["share"])).token,
	};
}

function isAllowed(operation: ApiOperation, scope: ApiTokenScope): boolean {
	return operation.access.isOpen === true || operation.access.scopes.includes(scope);
}

/** Every operation with a token of each scope, in the table's order. */
const CALLS = API_OPERATIONS.flatMap((operation) => SCOPES.map((scope) => ({ operation, scope })));

/**
 * Every call with the finished generation of `owner`'s it is about: a fresh one for a call that
 * may delete it, one shared by all the others.
 */
function withGenerationsOf(owner: Person) {
	return withFinishedGenerations(
		owner,
		CALLS,
		({ operation, scope }) => deletesGenerations(operation) && isAllowed(operation, scope),
	);
}

describe.each(availableDatabaseKinds())("the gate, route by route, on %s", (kind) => {
	let server: TestServer;
	let administrator: Person;
	let chat: FakeOpenAi;
	beforeAll(async () => {
		chat = await startFakeOpenAi();
		server = await createTestServer(kind, {
			enhance: {
				baseUrl: chat.baseUrl,
				apiKey: FAKE_OPENAI_KEY,
				model: "gpt-4.1-mini",
				instruction: "Rewrite the prompt.",
				perHour: 1_000,
			},
			limits: { maxActivePerUser: 50, dailyLimitPerUser: 0 },
			// Every report here comes from the one address a script without a proxy has.
			sharing: { ...DEFAULT_SHARING_SETTINGS, reportLimit: { windowSeconds: 3600, max: 1000 } },
		});
		administrator = await createTestAdministrator(server);
	});
	afterAll(async () => {
		await server?.close();
		await chat?.stop();
	});

	it.each([
		["a person", false],
		["the administrator", true],
	])(
		"lets %s's token of each scope call its routes and answers 403 naming the scope elsewhere",
		async (_, isAdministrator) => {
			const validateAgainstDocument = await readDocumentValidator(server);
			const person = isAdministrator ? administrator : await createTestUser(server);
			const tokens = await createTokens(person);
			const outcomes: string[] = [];
			for (const { operation, scope, generation } of await withGenerationsOf(person)) {
				const allowed = isAllowed(operation, scope);
				const response = await requestOperation(
					server,
					person,
					tokens[scope],
					operation,
					generation,
				);
				if (allowed) {
					expect(response.status, `${operation.id} with ${scope}`).toBe(operation.success.status);
					const { answer } = operation.success;
					// The live answer matches the schema the document was built from, and the
					// document itself, as a client generated from it reads it.
					if ("schema" in answer) {
						const body: unknown = await response.json();
						z.parse(answer.schema, body);
						expect(validateAgainstDocument(operation, response.status, body)).toEqual([]);
					} else {
						expect(response.headers.get("content-type")).toMatch(
							/^(image\/|application\/zip|text\/event-stream)/,
						);
						// The event stream lasts until it is left.
						await response.body?.cancel();
					}
				} else {
					const message = await expectErrorEnvelope(response, 403, "TOKEN_SCOPE_MISSING");
					for (const needed of operation.access.scopes) expect(message).toContain(`"${needed}"`);
				}
				outcomes.push(`${operation.id}:${scope}:${allowed ? "yes" : "no"}`);
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
			// Boards: `read` sees them, `organize` changes them, `generate` does neither.
			expect(outcomes).toContain("listBoards:read:yes");
			expect(outcomes).toContain("archiveBoard:read:yes");
			expect(outcomes).toContain("createBoard:organize:yes");
			expect(outcomes).toContain("addToBoard:organize:yes");
			expect(outcomes).toContain("createBoard:read:no");
			expect(outcomes).toContain("addToBoard:generate:no");
			expect(outcomes).toContain("deleteBoard:delete:no");
			expect(outcomes).toContain("createShare:share:yes");
			expect(outcomes).toContain("createShare:read:no");
			expect(outcomes).toContain("listShares:read:yes");
			expect(outcomes).toContain("revokeShare:read:no");
		},
		// Every operation with each scope (some 145 calls) and three generations made side by side:
		// 14 to 23 s on a loaded machine.
		70_000,
	);

	it("lets the administrator's token of each scope reach only the administrator's own generations", {
		// As the walk above.
		timeout: 70_000,
	}, async () => {
		const tokens = await createTokens(administrator);
		const stranger = await createTestUser(server);
		const outcomes: string[] = [];
		for (const { operation, scope, generation } of await withGenerationsOf(stranger)) {
			const response = await requestOperation(
				server,
				stranger,
				tokens[scope],
				operation,
				generation,
			);
			const label = `${operation.id} with ${scope}`;
			if (!isAllowed(operation, scope)) {
				await expectErrorEnvelope(response, 403, "TOKEN_SCOPE_MISSING");
				continue;
			}
			if (operation.id === "listGenerations") {
				const page = GenerationPageSchema.parse(await response.json());
				expect(page.items.length, label).toBeGreaterThan(0);
				expect(
					page.items.every((item) => item.user_id === administrator.userId),
					label,
				).toBe(true);
			} else if (
				[
					"listModels",
					"createGeneration",
					"uploadImage",
					"listActiveGenerations",
					"streamGenerationEvents",
					"listBoards",
					"createBoard",
					"listShares",
					// A link's page is for anyone who holds it.
					"readSharedPage",
					"reportShare",
					// A signed file's URL, too: the server signed it for an image service to fetch.
					"readSignedFile",
					"listStyles",
					"createStyle",
					"listRecentPrompts",
					"removeRecentPrompts",
					"enhancePrompt",
					// One's own Trash: the administrator's token reaches no one else's.
					"listTrash",
					"emptyTrash",
				].includes(operation.id)
			) {
				// Not about anyone else's generation: the administrator's own, as anyone's.
				expect(response.status, label).toBe(operation.success.status);
				// The event stream lasts until it is left.
				await response.body?.cancel();
			} else {
				expect(response.status, label).toBe(404);
				await expectErrorEnvelope(response, 404, "NOT_FOUND");
			}
			outcomes.push(`${operation.id}:${scope}`);
		}
		expect(outcomes).toContain("getGeneration:read");
		expect(outcomes).toContain("deleteGeneration:delete");
		expect(outcomes).toContain("deleteGenerations:delete");
		expect(outcomes).toContain("downloadImage:read");

		// Filtering by person is the administrator's browser session's, not a token's.
		const filtered = await callWithToken(
			server,
			tokens.read,
			`/api/generations?owner=${encodeURIComponent(stranger.email)}`,
		);
		await expectErrorEnvelope(filtered, 400, "VALIDATION_ERROR");

		// Nothing of the stranger's was deleted, and the administrator's browser still sees it all.
		const strangers = await server.database.db
			.selectFrom("generations")
			.select("id")
			.where("user_id", "=", stranger.userId)
			.execute();
		expect(strangers.length).toBeGreaterThan(0);
		const ownPage = GenerationPageSchema.parse(
			await (await stranger.client.request("/api/generations?limit=100")).json(),
		);
		expect(ownPage.items.map((item) => item.id).sort()).toEqual(
			strangers.map((row) => row.id).sort(),
		);
		for (const { id } of strangers.slice(0, 3)) {
			expect((await administrator.client.request(`/api/generations/${id}`)).status).toBe(200);
		}
		const moderated = await administrator.client.request(
			`/api/generations?limit=100&owner=${encodeURIComponent(stranger.email)}`,
		);
		expect(GenerationPageSchema.parse(await moderated.json()).items.length).toBe(strangers.length);
	});

	it("refuses every token, the administrator's too, on the administrator's routes", async () => {
		const { token } = await createToken(administrator, ["generate", "read", "delete"]);
		const person = await createTestUser(server);
		for (const path of [
			"/api/admin/people",
			"/api/admin/audit-log",
			"/api/admin/usage",
			"/api/admin/shares",
			"/api/admin/reports",
		]) {
			await expectErrorEnvelope(await callWithToken(server, token, path), 403, "TOKEN_NOT_ALLOWED");
			await expectErrorEnvelope(await person.client.request(path), 404, "NOT_FOUND");
			expect((await administrator.client.request(path)).status, path).toBe(200);
		}
		await expectErrorEnvelope(
			await callWithToken(server, token, `/api/admin/people/${person.userId}/disable`, {
				method: "POST",
			}),
			403,
			"TOKEN_NOT_ALLOWED",
		);
	});
});

/** The routes outside the public API that need a verified address, each with a valid request. */
const GRANT_ROUTES = [
	{
		path: "/api/account/tokens",
		json: { name: "nightly", scopes: ["read"], expiresInDays: 30 },
		list: "/api/account/tokens",
	},
	{
		path: "/api/account/webhooks",
		json: { url: "https://hooks.example.com/atelier", events: ["generation.completed"] },
		list: "/api/account/webhooks",
	},
] as const;

describe.each(availableDatabaseKinds())(
	"the gate with REQUIRE_EMAIL_VERIFICATION on %s",
	(kind) => {
		let server: TestServer;
		beforeAll(async () => {
			server = await createTestServer(kind, {
				requireEmailVerification: true,
				limits: { maxActivePerUser: 50, dailyLimitPerUser: 0 },
				// The endpoint's name resolves to a public address without asking a DNS server.
				webhooks: {
					...DEFAULT_WEBHOOK_SETTINGS,
					resolveHost: async () => ["93.184.216.34"],
					retryDelaysMs: [],
				},
			});
		});
		afterAll(async () => {
			await server?.close();
		});

		const needingVerifiedAddress = API_OPERATIONS.filter(
			(operation) => operation.access.needsVerifiedEmail,
		);

		it("names the routes that make images or act for the person later", () => {
			expect(needingVerifiedAddress.map((operation) => operation.id).sort()).toEqual([
				"createGeneration",
				"enhancePrompt",
				"uploadImage",
			]);
			expect(BROWSER_ACCESS.accountGrant.needsVerifiedEmail).toBe(true);
		});

		it("refuses an unverified session and an unverified token on every route that needs a verified address", async () => {
			const person = await createTestUser(server);
			// A token made before the operator turned verification on.
			const { token } = await createApiToken(server.database.db, person.userId, {
				name: "older script",
				scopes: ["generate", "read", "delete"],
				expiresInDays: 30,
			});
			for (const operation of needingVerifiedAddress) {
				const init =
					operation.id === "uploadImage"
						? { method: "POST", body: await pngForm() }
						: { method: "POST", json: { prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 } };
				await expectErrorEnvelope(
					await person.client.request(operation.path, init),
					403,
					"EMAIL_NOT_VERIFIED",
				);
				const again =
					operation.id === "uploadImage" ? { method: "POST", body: await pngForm() } : init;
				await expectErrorEnvelope(
					await callWithToken(server, token, operation.path, again),
					403,
					"EMAIL_NOT_VERIFIED",
				);
			}
			for (const route of GRANT_ROUTES) {
				await expectErrorEnvelope(
					await person.client.request(route.path, { method: "POST", json: route.json }),
					403,
					"EMAIL_NOT_VERIFIED",
				);
				await expectErrorEnvelope(
					await callWithToken(server, token, route.path, { method: "POST", json: route.json }),
					403,
					"TOKEN_NOT_ALLOWED",
				);
			}
			// Nothing was made, and looking around is allowed meanwhile.
			const db = server.database.db;
			for (const table of ["generations", "uploads", "webhook_endpoints"] as const) {
				const rows = await db
					.selectFrom(table)
					.select("id")
					.where("user_id", "=", person.userId)
					.execute();
				expect(rows, table).toEqual([]);
			}
			const tokens = await db
				.selectFrom("api_tokens")
				.select("id")
				.where("user_id", "=", person.userId)
				.execute();
			expect(tokens).toHaveLength(1);
			expect((await person.client.request("/api/generations")).status).toBe(200);
			expect((await person.client.request("/api/account/tokens")).status).toBe(200);
			expect((await callWithToken(server, token, "/api/generations")).status).toBe(200);
		});

		it("lets the same person do all of it once their address is verified", async () => {
			const person = await createTestUser(server);
			await server.database.db
				.updateTable("user")
				.set({ emailVerified: true })
				.where("id", "=", person.userId)
				.execute();
			const uploaded = await person.client.request("/api/uploads", {
				method: "POST",
				body: await pngForm(),
			});
			expect(uploaded.status).toBe(201);
			expect((await makeFinishedGeneration(person)).status).toBe("completed");
			for (const route of GRANT_ROUTES) {
				const made = await person.client.request(route.path, { method: "POST", json: route.json });
				expect(made.status, route.path).toBe(201);
			}
			const { token } = await createToken(person, ["generate"]);
			const started = await callWithToken(server, token, "/api/generations", {
				method: "POST",
				json: { prompt: PROMPT, aspectRatio: "--ar 1:1", count: 1 },
			});
			expect(started.status).toBe(201);
		});
	},
);
