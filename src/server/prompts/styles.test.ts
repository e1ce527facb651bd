import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GenerationPageSchema, GenerationSchema } from "../../shared/generations/generations";
import { readRecipeFromImage } from "../../shared/image-recipe/image-recipe-files";
import { PromptStyleSchema, PromptStylesSchema } from "../../shared/prompts/prompt-tool-responses";
import { parsePromptBlocklist } from "../config/prompt-blocklist";
import { createLocalProvider } from "../providers/local/local-provider";
import type { GenerationInput, ImageProvider } from "../providers/types";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration, requestGeneration, waitForFinish } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";

const OPERATOR_STYLE = {
	id: "cinematic",
	name: "Cinematic",
	prompt: "{prompt}, cinematic lighting, 35 mm film",
	negativePrompt: "cartoon",
	scope: "operator",
} as const;

/** The offline engine, remembering what each generation asked it for. */
function createRecordingProvider() {
	const local = createLocalProvider({ delayMs: 0 });
	const inputs: GenerationInput[] = [];
	const provider: ImageProvider = {
		...local,
		capabilities: local.capabilities,
		start(input, options) {
			inputs.push(input);
			return local.start(input, options);
		},
		check: (job, options) => local.check(job, options),
	};
	return { provider, inputs };
}

describe.each(availableDatabaseKinds())("styles on %s", (kind) => {
	let server: TestServer;
	const recording = createRecordingProvider();

	beforeAll(async () => {
		server = await createTestServer(kind, {
			provider: recording.provider,
			styles: [OPERATOR_STYLE],
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
			promptBlocklist: parsePromptBlocklist("kraken\n"),
		});
	});
	afterAll(async () => {
		await server.close();
	});

	async function saveStyle(
		client: Awaited<ReturnType<typeof createTestUser>>["client"],
		body: unknown,
	) {
		const response = await client.request("/api/styles", { method: "POST", json: body });
		expect(response.status).toBe(201);
		return PromptStyleSchema.parse(await response.json());
	}

	it("lists the operator's styles, then the person's own by name, and never another person's", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const zebra = await saveStyle(person.client, { name: "Zebra", prompt: "{prompt} in stripes" });
		const ink = await saveStyle(person.client, {
			name: "Ink",
			prompt: "ink drawing of {prompt}",
			negativePrompt: "colour",
		});
		await saveStyle(other.client, { name: "Theirs", prompt: "{prompt}, theirs" });

		const response = await person.client.request("/api/styles");
		expect(response.status).toBe(200);
		expect(PromptStylesSchema.parse(await response.json()).items).toEqual([
			OPERATOR_STYLE,
			{ ...ink, scope: "personal", negativePrompt: "colour" },
			{ ...zebra, scope: "personal", negativePrompt: null },
		]);
	});

	it("refuses a bad style with 400 naming the field, and keeps nothing", async () => {
		const person = await createTestUser(server);
		const cases: [unknown, string][] = [
			[{ name: "", prompt: "{prompt}" }, "name"],
			[{ name: "Plain", prompt: "a watercolour" }, "prompt must contain {prompt}"],
			[{ name: "Script", prompt: "<script>{prompt}" }, "prompt contains invalid content"],
			[{ name: "Long", prompt: `{prompt}${"x".repeat(600)}` }, "prompt must contain {prompt}"],
			[
				{ name: "Negative", prompt: "{prompt}", negativePrompt: "javascript:alert(1)" },
				"negativePrompt",
			],
		];
		for (const [body, field] of cases) {
			const response = await person.client.request("/api/styles", { method: "POST", json: body });
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toContain(field);
		}
		const listed = PromptStylesSchema.parse(
			await (await person.client.request("/api/styles")).json(),
		);
		expect(listed.items.filter((style) => style.scope === "personal")).toEqual([]);
	});

	it("renames and deletes one's own styles; another person's and the operator's answer 404", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const style = await saveStyle(person.client, { name: "Mine", prompt: "{prompt}, mine" });

		for (const id of [style.id, OPERATOR_STYLE.id, "not-a-style"]) {
			const renamed = await other.client.request(`/api/styles/${id}`, {
				method: "PATCH",
				json: { name: "Stolen" },
			});
			await expectErrorEnvelope(renamed, 404, "NOT_FOUND");
			const deleted = await other.client.request(`/api/styles/${id}`, { method: "DELETE" });
			await expectErrorEnvelope(deleted, 404, "NOT_FOUND");
		}
		const operatorRename = await person.client.request(`/api/styles/${OPERATOR_STYLE.id}`, {
			method: "PATCH",
			json: { name: "Mine now" },
		});
		await expectErrorEnvelope(operatorRename, 404, "NOT_FOUND");

		const renamed = await person.client.request(`/api/styles/${style.id}`, {
			method: "PATCH",
			json: { name: "Renamed", negativePrompt: "blur" },
		});
		expect(renamed.status).toBe(200);
		expect(PromptStyleSchema.parse(await renamed.json())).toEqual({
			...style,
			name: "Renamed",
			negativePrompt: "blur",
		});
		const empty = await person.client.request(`/api/styles/${style.id}`, {
			method: "PATCH",
			json: {},
		});
		await expectErrorEnvelope(empty, 400, "VALIDATION_ERROR");

		const deleted = await person.client.request(`/api/styles/${style.id}`, { method: "DELETE" });
		expect(deleted.status).toBe(200);
		const again = await person.client.request(`/api/styles/${style.id}`, { method: "DELETE" });
		await expectErrorEnvelope(again, 404, "NOT_FOUND");
	});

	it("sends the provider the prompt in the style, keeps the prompt as typed and the style's name", async () => {
		const person = await createTestUser(server);
		const prompt = `A lighthouse at dusk on ${kind}`;
		const created = await requestGeneration(person.client, `${prompt} --ar 3:2`, "--ar 3:2", {
			style: OPERATOR_STYLE.id,
			negativePrompt: "fog",
			count: 1,
		});
		expect((await waitForFinish(person.client, created.pollingUrl)).status).toBe("completed");
		const received = recording.inputs.find((input) => input.prompt.includes(prompt));
		expect(received).toMatchObject({
			prompt: `${prompt}, cinematic lighting, 35 mm film`,
			negativePrompt: "fog, cartoon",
		});
		const generation = await readGeneration(person.client, created.id);
		expect(generation.prompt).toBe(`${prompt} --ar 3:2`);
		expect(generation.settings.negativePrompt).toBe("fog");
		expect(generation.style).toEqual({ id: OPERATOR_STYLE.id, name: OPERATOR_STYLE.name });

		// The downloaded original's recipe carries the prompt as typed and the style.
		const download = await person.client.request(
			`/api/generations/${created.id}/images/0/download`,
		);
		expect(download.status).toBe(200);
		expect(readRecipeFromImage(new Uint8Array(await download.arrayBuffer()))).toMatchObject({
			prompt: `${prompt} --ar 3:2`,
			negativePrompt: "fog",
			style: { id: OPERATOR_STYLE.id, name: OPERATOR_STYLE.name },
		});
	});

	it("keeps a personal style's name on its generations once it is renamed or deleted", async () => {
		const person = await createTestUser(server);
		const style = await saveStyle(person.client, { name: "Pastel", prompt: "pastel {prompt}" });
		const prompt = `A harbour on ${kind}`;
		const created = await requestGeneration(person.client, prompt, "--ar 1:1", {
			style: style.id,
			count: 1,
		});
		await waitForFinish(person.client, created.pollingUrl);
		expect(recording.inputs.find((input) => input.prompt.includes(prompt))?.prompt).toBe(
			`pastel ${prompt}`,
		);
		await person.client.request(`/api/styles/${style.id}`, { method: "DELETE" });
		const response = await person.client.request(`/api/generations/${created.id}`);
		expect(GenerationSchema.parse(await response.json()).style).toEqual({
			id: style.id,
			name: "Pastel",
		});
	});

	it("filters the history by style, and counts what the filter matches", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const styled = await requestGeneration(person.client, "A styled barn", "--ar 1:1", {
			style: OPERATOR_STYLE.id,
			count: 1,
		});
		await requestGeneration(person.client, "A plain barn", "--ar 1:1", { count: 1 });
		await requestGeneration(other.client, "Their styled barn", "--ar 1:1", {
			style: OPERATOR_STYLE.id,
			count: 1,
		});
		const response = await person.client.request(`/api/generations?style=${OPERATOR_STYLE.id}`);
		expect(response.status).toBe(200);
		const page = GenerationPageSchema.parse(await response.json());
		expect(page.items.map((item) => item.id)).toEqual([styled.id]);
		expect(page.total).toBe(1);
		const all = GenerationPageSchema.parse(
			await (await person.client.request("/api/generations?style=")).json(),
		);
		expect(all.total).toBe(2);
	});

	it("refuses a style that is not the person's with 400 naming the field, and starts nothing", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const theirs = await saveStyle(other.client, { name: "Theirs", prompt: "{prompt}, theirs" });
		for (const style of [theirs.id, "no-such-style"]) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: { prompt: "A quiet street", aspectRatio: "--ar 1:1", style },
			});
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toContain("style");
		}
		const history = await person.client.request("/api/generations");
		expect(((await history.json()) as { items: unknown[] }).items).toEqual([]);
	});

	it("lets a read token list styles and a generate token change them, each refused the other", async () => {
		const person = await createTestUser(server);
		const read = await createToken(person, ["read"]);
		const generate = await createToken(person, ["generate"]);
		const listed = await callWithToken(server, read.token, "/api/styles");
		expect(listed.status).toBe(200);
		await expectErrorEnvelope(
			await callWithToken(server, generate.token, "/api/styles"),
			403,
			"TOKEN_SCOPE_MISSING",
		);
		const body = { name: "Scripted", prompt: "{prompt}, scripted" };
		await expectErrorEnvelope(
			await callWithToken(server, read.token, "/api/styles", { method: "POST", json: body }),
			403,
			"TOKEN_SCOPE_MISSING",
		);
		const saved = await callWithToken(server, generate.token, "/api/styles", {
			method: "POST",
			json: body,
		});
		expect(saved.status).toBe(201);
	});

	it("refuses a style that carries a blocked word into the prompt or the negative prompt, and starts nothing", async () => {
		const person = await createTestUser(server);
		const inPrompt = await saveStyle(person.client, {
			name: "Sea",
			prompt: "{prompt} with a kraken",
		});
		const inNegative = await saveStyle(person.client, {
			name: "Calm sea",
			prompt: "{prompt}, calm",
			negativePrompt: "kraken",
		});
		for (const style of [inPrompt.id, inNegative.id]) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: { prompt: "A quiet bay", aspectRatio: "--ar 1:1", style, count: 1 },
			});
			await expectErrorEnvelope(response, 400, "PROMPT_BLOCKED");
		}
		const history = await person.client.request("/api/generations");
		expect(((await history.json()) as { items: unknown[] }).items).toEqual([]);
	});

	it("keeps the source's style on a variation, an upscale and an edit of a styled result", async () => {
		const person = await createTestUser(server);
		const style = await saveStyle(person.client, {
			name: "Woodcut",
			prompt: "woodcut of {prompt}",
			negativePrompt: "photo",
		});
		const prompt = `A windmill on ${kind}`;
		const parent = await requestGeneration(person.client, prompt, "--ar 1:1", {
			style: style.id,
			count: 1,
		});
		await waitForFinish(person.client, parent.pollingUrl);
		const reference = { generationId: parent.id, imageIndex: 0 };
		const children = [
			{ reference, action: "vary-subtle", count: 1 },
			{ reference, action: "upscale" },
			{ reference, prompt: `A windmill at night on ${kind}`, aspectRatio: "--ar 1:1", count: 1 },
		];
		for (const body of children) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: body,
			});
			expect(response.status).toBe(201);
			const { id, pollingUrl } = (await response.json()) as { id: string; pollingUrl: string };
			await waitForFinish(person.client, pollingUrl);
			const generation = await readGeneration(person.client, id);
			expect(generation.style).toEqual({ id: style.id, name: "Woodcut" });
		}
		const asked = recording.inputs.filter((input) => input.prompt.includes("A windmill"));
		expect(asked.map((input) => input.prompt)).toEqual([
			`woodcut of ${prompt}`,
			`woodcut of ${prompt}`,
			`woodcut of ${prompt}`,
			`woodcut of A windmill at night on ${kind}`,
		]);
		expect(asked[1]?.negativePrompt).toBe("photo");
	});
});
