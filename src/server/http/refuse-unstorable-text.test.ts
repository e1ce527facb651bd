import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { unstorableTextMessage } from "../../shared/core/storable-text";
import { ErrorEnvelopeSchema } from "../../shared/generations/generation-responses";
import { API_OPERATIONS } from "../openapi/openapi-document";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";

/** Texts a database cannot hold: a NUL (PostgreSQL and PGlite refuse it), lone surrogates. */
const UNSTORABLE_TEXTS = {
	NUL: "uqX\u0000tail",
	"a lone high surrogate": "uqX\uD800tail",
	"a lone low surrogate": "\uDC00uqX",
} as const;

const JsonObjectSchema = z.looseObject({
	properties: z.record(z.string(), z.unknown()).optional(),
});

/** The names an input schema gives its fields (a query's parameters, a JSON body's properties). */
function fieldNames(schema: z.core.$ZodType): string[] {
	const json = JsonObjectSchema.parse(
		z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }),
	);
	return Object.keys(json.properties ?? {});
}

/** An operation's path with its parameters filled with their examples (or any id). */
function examplePath(operation: (typeof API_OPERATIONS)[number]): string {
	return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const parameter = operation.pathParameters?.find((candidate) => candidate.name === name);
		return encodeURIComponent(parameter?.example ?? "0");
	});
}

type Case = { operation: string; method: string; path: string; field: string; init: RequestInit };

/**
 * The fuzz of the API's text inputs: every query parameter and every JSON body field of every
 * operation in the API's table (the domains' `*-operations.ts`, the OpenAPI document's source), each given
 * a text the database cannot hold. Query parameters carry a NUL (a URL cannot carry a lone
 * surrogate: it is encoded as U+FFFD); JSON fields carry each kind.
 */
function fuzzCases(): Case[] {
	const cases: Case[] = [];
	for (const operation of API_OPERATIONS) {
		const method = operation.method.toUpperCase();
		const path = examplePath(operation);
		for (const field of operation.query ? fieldNames(operation.query) : []) {
			const query = new URLSearchParams({ [field]: UNSTORABLE_TEXTS.NUL });
			cases.push({ operation: operation.id, method, path: `${path}?${query}`, field, init: {} });
		}
		const body = operation.body;
		if (!body || "mediaType" in body) continue;
		const example = z.record(z.string(), z.unknown()).parse(body.example);
		const fields = new Set([...Object.keys(example), ...fieldNames(body.schema)]);
		for (const field of fields) {
			for (const text of Object.values(UNSTORABLE_TEXTS)) {
				const json = JSON.stringify({ ...example, [field]: text });
				cases.push({
					operation: operation.id,
					method,
					path,
					field,
					init: { method, body: json, headers: { "content-type": "application/json" } },
				});
			}
		}
	}
	return cases;
}

describe.each(availableDatabaseKinds())("texts the database cannot hold (%s)", (kind) => {
	let server: TestServer;
	let client: TestClient;
	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
		({ client } = await createTestUser(server));
	});
	afterAll(async () => {
		await server?.close();
	});

	async function expectRefused(response: Response, field: string) {
		expect(response.status).toBe(400);
		const envelope = ErrorEnvelopeSchema.parse(await response.json());
		expect(envelope.error).toEqual({
			code: "VALIDATION_ERROR",
			message: unstorableTextMessage(field),
		});
	}

	it("are refused 400 naming the field in every query parameter and JSON field of every operation", async () => {
		const cases = fuzzCases();
		// Every operation with a query or a JSON body is covered.
		const covered = new Set(cases.map((fuzzCase) => fuzzCase.operation));
		for (const operation of API_OPERATIONS) {
			const hasJson = operation.body !== undefined && !("mediaType" in operation.body);
			if (operation.query || hasJson) expect(covered).toContain(operation.id);
		}
		for (const { method, path, field, init } of cases) {
			const response = await client.request(path, { ...init, method });
			await expectRefused(response, field);
		}
	});

	it("answers the history filtered by a model with a NUL 400 naming `model`, not 500", async () => {
		await expectRefused(await client.request("/api/generations?model=uqX%00abc"), "model");
		await expectRefused(await client.request("/api/generations?q=sun%00set"), "q");
	});

	it("refuses a prompt or negative prompt holding one, and stores nothing", async () => {
		for (const text of Object.values(UNSTORABLE_TEXTS)) {
			const prompt = await client.request("/api/generations", {
				method: "POST",
				json: { prompt: `a cat ${text}`, aspectRatio: "--ar 1:1" },
			});
			await expectRefused(prompt, "prompt");
			const negative = await client.request("/api/generations", {
				method: "POST",
				json: { prompt: "a cat", aspectRatio: "--ar 1:1", negativePrompt: text },
			});
			await expectRefused(negative, "negativePrompt");
		}
		const history = await (await client.request("/api/generations")).json();
		expect(z.looseObject({ items: z.array(z.unknown()) }).parse(history).items).toEqual([]);
	});

	it("refuses one in the routes outside the API's table: sign-up, tokens, webhooks", async () => {
		const newcomer = await client.request("/api/auth/sign-up/email", {
			method: "POST",
			json: { email: "nul@example.com", password: "correct horse battery", name: "a\u0000b" },
		});
		await expectRefused(newcomer, "name");
		const token = await client.request("/api/account/tokens", {
			method: "POST",
			json: { name: "ci\uD800", scopes: ["generations:read"] },
		});
		await expectRefused(token, "name");
		const webhook = await client.request("/api/account/webhooks", {
			method: "POST",
			json: { url: "https://example.com/\u0000", events: ["generation.completed"] },
		});
		await expectRefused(webhook, "url");
		const form = await client.request("/api/generations/archive", {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded" },
			body: "ids=%00",
		});
		await expectRefused(form, "ids[0]");
	});
});
