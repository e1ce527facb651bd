import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UsageReportSchema } from "../../shared/admin/usage-responses";
import { readRecipeFromImage } from "../../shared/image-recipe/image-recipe-files";
import { EnhancedPromptSchema } from "../../shared/prompts/prompt-tool-responses";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "../testing/fakes/openai";
import { FAKE_REWRITE_SUFFIX, FAKE_TRANSLATED_PREFIX } from "../testing/fakes/openai-chat";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { TRANSLATE_INSTRUCTION } from "./enhance-prompt";

const INSTRUCTION = "Rewrite the prompt for an image model. Answer with the prompt only.";
const PER_HOUR = 3;

type Client = Awaited<ReturnType<typeof createTestUser>>["client"];

function enhance(client: Client, body: unknown) {
	return client.request("/api/prompts/enhance", { method: "POST", json: body });
}

function chatRequests(chat: FakeOpenAi) {
	return chat.requests().filter((request) => request.path === "/v1/chat/completions");
}

describe.each(availableDatabaseKinds())("Enhance on %s", (kind) => {
	let server: TestServer;
	let chat: FakeOpenAi;

	beforeAll(async () => {
		chat = await startFakeOpenAi();
		server = await createTestServer(kind, {
			enhance: {
				baseUrl: chat.baseUrl,
				apiKey: FAKE_OPENAI_KEY,
				model: "gpt-4.1-mini",
				instruction: INSTRUCTION,
				perHour: PER_HOUR,
				requestTimeoutMs: 1_000,
			},
		});
	});
	afterAll(async () => {
		await server?.close();
		await chat?.stop();
	});
	beforeEach(() => {
		chat.setBehaviour({ chatAnswer: "rewrite" });
	});

	it("asks the chat endpoint with the key, the model, the instruction and the prompt, and stores nothing", async () => {
		const person = await createTestUser(server);
		const before = chatRequests(chat).length;
		const response = await enhance(person.client, { prompt: `  A red fox on ${kind}  ` });
		expect(response.status).toBe(200);
		expect(EnhancedPromptSchema.parse(await response.json())).toEqual({
			prompt: `A red fox on ${kind}${FAKE_REWRITE_SUFFIX}`,
		});
		const sent = chatRequests(chat).slice(before);
		expect(sent).toHaveLength(1);
		expect(sent[0]?.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
		expect(sent[0]?.body).toEqual({
			model: "gpt-4.1-mini",
			messages: [
				{ role: "system", content: INSTRUCTION },
				{ role: "user", content: `A red fox on ${kind}` },
			],
		});
		// A proposal only: no generation, and nothing in the person's last prompts.
		const history = await person.client.request("/api/generations");
		expect(((await history.json()) as { items: unknown[] }).items).toEqual([]);
		const recent = await person.client.request("/api/prompts/recent");
		expect(((await recent.json()) as { items: unknown[] }).items).toEqual([]);
	});

	it("asks for English when the person asks for a translation", async () => {
		const person = await createTestUser(server);
		const before = chatRequests(chat).length;
		const response = await enhance(person.client, {
			prompt: "un renard roux dans la neige",
			translate: true,
		});
		expect(response.status).toBe(200);
		expect(EnhancedPromptSchema.parse(await response.json()).prompt).toBe(
			`${FAKE_TRANSLATED_PREFIX}un renard roux dans la neige${FAKE_REWRITE_SUFFIX}`,
		);
		const [sent] = chatRequests(chat).slice(before);
		expect(sent?.body).toMatchObject({
			messages: [{ role: "system", content: `${INSTRUCTION}\n\n${TRANSLATE_INSTRUCTION}` }, {}],
		});
	});

	it("answers a refusal, an empty answer, a failure and a timeout with the catalogue's errors, never 500", async () => {
		const cases = [
			["content-filter", 422, "ENHANCE_REFUSED"],
			["refusal", 422, "ENHANCE_REFUSED"],
			["empty", 502, "ENHANCE_FAILED"],
			["server-error", 502, "ENHANCE_FAILED"],
			["hang", 502, "ENHANCE_FAILED"],
		] as const;
		for (const [answer, status, code] of cases) {
			// A person each: the hourly limit is not what is tested here.
			const person = await createTestUser(server);
			chat.setBehaviour({ chatAnswer: answer });
			const started = Date.now();
			const response = await enhance(person.client, { prompt: "A quiet harbour" });
			await expectErrorEnvelope(response, status, code);
			expect(Date.now() - started).toBeLessThan(10_000);
		}
	});

	it("refuses a bad prompt with 400 naming it, without calling the endpoint", async () => {
		const person = await createTestUser(server);
		const before = chatRequests(chat).length;
		for (const body of [
			{},
			{ prompt: "   " },
			{ prompt: "x".repeat(501) },
			{ prompt: "<script>alert(1)</script>" },
			{ prompt: "A fox", translate: "yes" },
			{ prompt: "A fox", extra: 1 },
		]) {
			const response = await enhance(person.client, body);
			await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
		}
		expect(chatRequests(chat).length).toBe(before);
	});

	it("limits each person's rewrites in an hour with 429 and Retry-After, others unaffected", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		for (let call = 0; call < PER_HOUR; call++) {
			expect((await enhance(person.client, { prompt: `A fox, take ${call}` })).status).toBe(200);
		}
		const before = chatRequests(chat).length;
		const refused = await enhance(person.client, { prompt: "A fox, once more" });
		expect(await expectErrorEnvelope(refused, 429, "RATE_LIMITED")).toMatch(
			/You have enhanced 3 prompts this hour/,
		);
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect(chatRequests(chat).length).toBe(before);
		expect((await enhance(other.client, { prompt: "A fox" })).status).toBe(200);
	});

	it("takes a generate token only, and nobody signed out", async () => {
		const person = await createTestUser(server);
		const body = { method: "POST", json: { prompt: "A lantern" } };
		const generate = await createToken(person, ["generate"]);
		expect((await callWithToken(server, generate.token, "/api/prompts/enhance", body)).status).toBe(
			200,
		);
		for (const scope of ["read", "delete"] as const) {
			const token = await createToken(person, [scope]);
			await expectErrorEnvelope(
				await callWithToken(server, token.token, "/api/prompts/enhance", body),
				403,
				"TOKEN_SCOPE_MISSING",
			);
		}
		const signedOut = await new TestClient(server).request("/api/prompts/enhance", body);
		expect(signedOut.status).toBe(401);
	});

	it("keeps the prompt as written beside the enhanced one used, in the generation and its recipe", async () => {
		const person = await createTestUser(server);
		const original = `A fox on ${kind}`;
		const proposal = EnhancedPromptSchema.parse(
			await (await enhance(person.client, { prompt: original })).json(),
		);
		const created = await requestGeneration(person.client, proposal.prompt, "--ar 1:1", {
			originalPrompt: original,
			count: 1,
		});
		await waitForFinish(person.client, created.pollingUrl);
		const generation = await readGeneration(person.client, created.id);
		expect(generation.prompt).toBe(proposal.prompt);
		expect(generation.originalPrompt).toBe(original);
		const download = await person.client.request(
			`/api/generations/${created.id}/images/0/download`,
		);
		expect(readRecipeFromImage(new Uint8Array(await download.arrayBuffer()))).toMatchObject({
			prompt: proposal.prompt,
			originalPrompt: original,
		});
		// Without an enhanced prompt, no original; and an original needs the prompt it was made into.
		const plain = await requestGeneration(person.client, original, "--ar 1:1", {
			originalPrompt: original,
			count: 1,
		});
		expect((await readGeneration(person.client, plain.id)).originalPrompt).toBeUndefined();
		const orphan = await person.client.request("/api/generations", {
			method: "POST",
			json: {
				reference: { generationId: created.id, imageIndex: 0 },
				action: "vary-subtle",
				originalPrompt: original,
			},
		});
		expect(await expectErrorEnvelope(orphan, 400, "VALIDATION_ERROR")).toContain("originalPrompt");
	});

	it("tells the web app it is configured, and counts each person's calls on the Usage page", async () => {
		const config = await new TestClient(server).request("/api/config");
		expect(((await config.json()) as { enhance?: boolean }).enhance).toBe(true);
		const admin = await createTestAdministrator(server);
		const person = await createTestUser(server);
		await enhance(person.client, { prompt: "A barn" });
		await enhance(person.client, { prompt: "A barn at night" });
		const response = await admin.client.request("/api/admin/usage");
		expect(response.status).toBe(200);
		const report = UsageReportSchema.parse(await response.json());
		expect(report.enhance?.byPerson).toContainEqual({ email: person.email, calls: 2 });
		expect(report.enhance?.total).toBeGreaterThanOrEqual(2);
	});
});

describe.each(availableDatabaseKinds())("Enhance unconfigured on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server?.close();
	});

	it("answers 404 and tells the web app to hide the button", async () => {
		const person = await createTestUser(server);
		const response = await enhance(person.client, { prompt: "A red fox" });
		await expectErrorEnvelope(response, 404, "ENHANCE_NOT_CONFIGURED");
		const config = await new TestClient(server).request("/api/config");
		expect(((await config.json()) as { enhance?: boolean }).enhance).toBe(false);
	});
});
