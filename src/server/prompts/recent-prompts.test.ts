import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecentPromptsSchema } from "../../shared/prompts/prompt-tool-responses";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";

type Client = Awaited<ReturnType<typeof createTestUser>>["client"];

async function readRecent(client: Client, query = ""): Promise<string[]> {
	const response = await client.request(`/api/prompts/recent${query}`);
	expect(response.status).toBe(200);
	return RecentPromptsSchema.parse(await response.json()).items.map((item) => item.prompt);
}

/** The same person signed in on another device: a second session of their own. */
async function signInElsewhere(server: TestServer, person: { email: string; password: string }) {
	const client = new TestClient(server, "198.51.100.7");
	const response = await client.request("/api/auth/sign-in/email", {
		method: "POST",
		json: { email: person.email, password: person.password },
	});
	expect(response.status).toBe(200);
	return client;
}

describe.each(availableDatabaseKinds())("the last prompts on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind, {
			limits: { maxActivePerUser: 200, dailyLimitPerUser: 0 },
		});
	});
	afterAll(async () => {
		await server.close();
	});

	it("keeps a person's distinct prompts newest first, on every device, and never another's", async () => {
		const person = await createTestUser(server);
		const stranger = await createTestUser(server);
		await requestGeneration(person.client, "A red fox", "--ar 1:1", { count: 1 });
		await requestGeneration(person.client, "A tea house --ar 16:9", "--ar 16:9", { count: 1 });
		await requestGeneration(person.client, "A red fox", "--ar 1:1", { count: 1 });
		await requestGeneration(stranger.client, "Their secret prompt", "--ar 1:1", { count: 1 });

		const elsewhere = await signInElsewhere(server, person);
		expect(await readRecent(elsewhere)).toEqual(["A red fox", "A tea house --ar 16:9"]);
		expect(await readRecent(person.client)).toEqual(["A red fox", "A tea house --ar 16:9"]);
		expect(await readRecent(stranger.client)).toEqual(["Their secret prompt"]);
		expect(await readRecent(person.client, "?q=TEA")).toEqual(["A tea house --ar 16:9"]);
		// Searched text means only itself.
		expect(await readRecent(person.client, "?q=%25")).toEqual([]);
	});

	it("does not add a variation's prompt, which is its parent's", async () => {
		const person = await createTestUser(server);
		const made = await requestGeneration(person.client, "A lighthouse", "--ar 1:1", { count: 1 });
		await waitForFinish(person.client, made.pollingUrl);
		await requestGeneration(person.client, "A harbour", "--ar 1:1", { count: 1 });
		const parent = await readGeneration(person.client, made.id);
		const vary = await person.client.request("/api/generations", {
			method: "POST",
			json: { reference: { generationId: parent.id, imageIndex: 0 }, action: "vary-subtle" },
		});
		expect(vary.status).toBe(201);
		expect(await readRecent(person.client)).toEqual(["A harbour", "A lighthouse"]);
	});

	it("keeps the newest 100 distinct prompts", async () => {
		const person = await createTestUser(server);
		for (let index = 0; index < 102; index++) {
			await requestGeneration(person.client, `Prompt number ${index}`, "--ar 1:1", { count: 1 });
		}
		const recent = await readRecent(person.client);
		expect(recent).toHaveLength(100);
		expect(recent[0]).toBe("Prompt number 101");
		expect(recent.at(-1)).toBe("Prompt number 2");
	}, 120_000);

	it("removes one prompt or all of them, the person's own only", async () => {
		const person = await createTestUser(server);
		const stranger = await createTestUser(server);
		await requestGeneration(person.client, "Keep me", "--ar 1:1", { count: 1 });
		await requestGeneration(person.client, "Forget me", "--ar 1:1", { count: 1 });
		await requestGeneration(stranger.client, "Forget me", "--ar 1:1", { count: 1 });

		const one = await person.client.request("/api/prompts/recent/remove", {
			method: "POST",
			json: { prompt: "Forget me" },
		});
		expect(await one.json()).toEqual({ success: true, removed: 1 });
		expect(await readRecent(person.client)).toEqual(["Keep me"]);
		expect(await readRecent(stranger.client)).toEqual(["Forget me"]);

		const bad = await person.client.request("/api/prompts/recent/remove", {
			method: "POST",
			json: { all: false },
		});
		await expectErrorEnvelope(bad, 400, "VALIDATION_ERROR");
		expect(await readRecent(person.client)).toEqual(["Keep me"]);

		const all = await person.client.request("/api/prompts/recent/remove", {
			method: "POST",
			json: { all: true },
		});
		expect(await all.json()).toEqual({ success: true, removed: 1 });
		expect(await readRecent(person.client)).toEqual([]);
		expect(await readRecent(stranger.client)).toEqual(["Forget me"]);
	});

	it("lets a read token list them and a delete token forget them, each refused the other", async () => {
		const person = await createTestUser(server);
		await requestGeneration(person.client, "A scripted prompt", "--ar 1:1", { count: 1 });
		const read = await createToken(person, ["read"]);
		const remove = await createToken(person, ["delete"]);
		expect((await callWithToken(server, read.token, "/api/prompts/recent")).status).toBe(200);
		await expectErrorEnvelope(
			await callWithToken(server, remove.token, "/api/prompts/recent"),
			403,
			"TOKEN_SCOPE_MISSING",
		);
		const body = { method: "POST", json: { all: true } };
		await expectErrorEnvelope(
			await callWithToken(server, read.token, "/api/prompts/recent/remove", body),
			403,
			"TOKEN_SCOPE_MISSING",
		);
		expect(
			(await callWithToken(server, remove.token, "/api/prompts/recent/remove", body)).status,
		).toBe(200);
	});
});
