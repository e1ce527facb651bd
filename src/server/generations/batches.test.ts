import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateBatchResponseSchema } from "../../shared/generations/generation-responses";
import { GenerationPageSchema } from "../../shared/generations/generations";
import { RecentPromptsSchema } from "../../shared/prompts/prompt-tool-responses";
import { parsePromptBlocklist } from "../config/prompt-blocklist";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { createLocalProvider } from "../providers/local/local-provider";
import { callWithToken, createToken } from "../testing/api-token-kit";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { readGeneration } from "../testing/generation-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestAdministrator,
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const PAINTER_PRICE = 0.04;
const STYLE = {
	id: "poster",
	name: "Poster",
	prompt: "poster of {prompt}",
	negativePrompt: null,
	scope: "operator",
} as const;

/**
 * Four models: the offline engine, a priced one without a seed, one that only draws squares, and
 * another without a seed.
 */
function createCatalogue() {
	const local = createLocalProvider({ delayMs: 0 });
	return createModelCatalogue(
		[
			modelFromProvider(local, { id: "local", label: "Offline engine" }),
			modelFromProvider(local, {
				id: "painter",
				label: "Painter",
				pricePerImage: PAINTER_PRICE,
				seed: false,
			}),
			modelFromProvider(local, { id: "square", label: "Square", ratios: ["--ar 1:1"] }),
			modelFromProvider(local, { id: "sketcher", label: "Sketcher", seed: false }),
		],
		"local",
	);
}

async function startBatch(client: TestClient, body: Record<string, unknown>) {
	const response = await client.request("/api/generations", {
		method: "POST",
		json: { aspectRatio: "--ar 1:1", count: 1, ...body },
	});
	expect(response.status, await response.clone().text()).toBe(201);
	return CreateBatchResponseSchema.parse(await response.json());
}

async function listBatch(client: TestClient, batchId: string) {
	const response = await client.request(`/api/generations?batch=${batchId}`);
	expect(response.status).toBe(200);
	return GenerationPageSchema.parse(await response.json());
}

async function countGenerations(server: TestServer, person: Person): Promise<number> {
	const row = await server.database.db
		.selectFrom("generations")
		.select((eb) => eb.fn.countAll<string>().as("count"))
		.where("user_id", "=", person.userId)
		.executeTakeFirstOrThrow();
	return Number(row.count);
}

describe.each(availableDatabaseKinds())("batches on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		// No worker: every generation stays queued, so each counts against the concurrency quota.
		server = await createTestServer(kind, {
			models: createCatalogue(),
			isWorkerEnabled: false,
			styles: [STYLE],
			promptBlocklist: parsePromptBlocklist("forbidden"),
			limits: { maxActivePerUser: 100, dailyLimitPerUser: 0, maxBatchGenerations: 16 },
		});
	});
	afterAll(async () => {
		await server.close();
	});

	it("expands every combination into one batch, listed by ?batch= and remembered once as typed", async () => {
		const person = await createTestUser(server);
		const prompt = "a {red|green|blue} car at {dawn|dusk}";
		const batch = await startBatch(person.client, { prompt, variations: "all", seed: 7 });
		expect(batch.success).toBe(true);
		expect(batch.seed).toBe(7);
		expect(batch.generations.map((generation) => generation.prompt)).toEqual([
			"a red car at dawn",
			"a red car at dusk",
			"a green car at dawn",
			"a green car at dusk",
			"a blue car at dawn",
			"a blue car at dusk",
		]);
		for (const created of batch.generations) {
			expect(created.pollingUrl).toBe(`/api/generations/${created.id}/status`);
			expect(created.model).toEqual({ id: "local", label: "Offline engine" });
			const generation = await readGeneration(person.client, created.id);
			expect(generation.batchId).toBe(batch.batchId);
			expect(generation.prompt).toBe(created.prompt);
			expect(generation.settings.seed).toBe(7);
		}
		const listed = await listBatch(person.client, batch.batchId);
		expect(listed.total).toBe(6);
		expect(listed.items.map((item) => item.prompt).sort()).toEqual(
			batch.generations.map((generation) => generation.prompt).sort(),
		);
		const recent = RecentPromptsSchema.parse(
			await (await person.client.request("/api/prompts/recent")).json(),
		);
		expect(recent.items.map((item) => item.prompt)).toEqual([prompt]);
	});

	it("reads braces as plain text without variations, and a generation alone has no batch", async () => {
		const person = await createTestUser(server);
		const response = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "a {red|green} car", aspectRatio: "--ar 1:1", count: 1 },
		});
		expect(response.status).toBe(201);
		const created = (await response.json()) as { id: string; batchId?: unknown };
		expect(created.batchId).toBeUndefined();
		const generation = await readGeneration(person.client, created.id);
		expect(generation.prompt).toBe("a {red|green} car");
		expect(generation.batchId).toBeNull();
	});

	it("repeats seeded random picks, and answers the seed it drew when none was asked", async () => {
		const person = await createTestUser(server);
		const prompt = "{a|b|c} {x|y|z} {1|2|3}";
		const first = await startBatch(person.client, { prompt, variations: { random: 4 }, seed: 99 });
		const again = await startBatch(person.client, { prompt, variations: { random: 4 }, seed: 99 });
		const firstPrompts = first.generations.map((generation) => generation.prompt);
		expect(firstPrompts).toHaveLength(4);
		expect(new Set(firstPrompts).size).toBe(4);
		expect(again.generations.map((generation) => generation.prompt)).toEqual(firstPrompts);
		expect(again.batchId).not.toBe(first.batchId);

		const drawn = await startBatch(person.client, { prompt, variations: { random: 4 } });
		const repeated = await startBatch(person.client, {
			prompt,
			variations: { random: 4 },
			seed: drawn.seed,
		});
		expect(repeated.generations.map((generation) => generation.prompt)).toEqual(
			drawn.generations.map((generation) => generation.prompt),
		);
		for (const created of drawn.generations) expect(created.settings.seed).toBe(drawn.seed);
	});

	it("refuses bad variations with 400 naming the field, and starts nothing", async () => {
		const person = await createTestUser(server);
		const cases: [Record<string, unknown>, string][] = [
			[{ prompt: "a {red|green car", variations: "all" }, "prompt"],
			[{ prompt: "a {red|{dark|light} green} car", variations: "all" }, "prompt"],
			[{ prompt: "a red car", variations: "all" }, "variations"],
			[{ prompt: "{a|b|c} {d|e|f} {g|h|i}", variations: "all" }, "variations"],
			[{ prompt: "{a|b|c}", variations: { random: 4 } }, "variations"],
			[{ prompt: "{a|b}", variations: { random: 0 } }, "variations"],
			[{ prompt: "{a|b}", variations: "some" }, "variations"],
		];
		for (const [body, field] of cases) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: { aspectRatio: "--ar 1:1", ...body },
			});
			const message = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
			expect(message.startsWith(field), message).toBe(true);
		}
		const overCap = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "{a|b|c} {d|e|f} {g|h|i}", aspectRatio: "--ar 1:1", variations: "all" },
		});
		expect(await expectErrorEnvelope(overCap, 400, "VALIDATION_ERROR")).toBe(
			"variations: this makes 27 generations, more than the limit of 16",
		);
		expect(await countGenerations(server, person)).toBe(0);
	});

	it("applies the blocklist and the style to each expanded prompt", async () => {
		const person = await createTestUser(server);
		const blocked = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "a {red|forbidden} car", aspectRatio: "--ar 1:1", variations: "all" },
		});
		await expectErrorEnvelope(blocked, 400, "PROMPT_BLOCKED");
		expect(await countGenerations(server, person)).toBe(0);

		const styled = await startBatch(person.client, {
			prompt: "a {red|blue} car",
			variations: "all",
			style: STYLE.id,
		});
		const rows = await server.database.db
			.selectFrom("generations")
			.select(["prompt", "styled_prompt", "style_name"])
			.where("batch_id", "=", styled.batchId)
			.orderBy("prompt")
			.execute();
		expect(rows).toEqual([
			{ prompt: "a blue car", styled_prompt: "poster of a blue car", style_name: "Poster" },
			{ prompt: "a red car", styled_prompt: "poster of a red car", style_name: "Poster" },
		]);
	});

	it("compares models with the same prompt, ratio and seed where each takes one", async () => {
		const person = await createTestUser(server);
		const batch = await startBatch(person.client, {
			prompt: "a lighthouse",
			aspectRatio: "--ar 1:1",
			models: ["local", "painter", "square"],
			seed: 1234,
		});
		expect(batch.generations.map((generation) => [generation.model.id, generation.prompt])).toEqual(
			[
				["local", "a lighthouse"],
				["painter", "a lighthouse"],
				["square", "a lighthouse"],
			],
		);
		expect(batch.generations.map((generation) => generation.settings.seed)).toEqual([
			1234,
			null,
			1234,
		]);
		const listed = await listBatch(person.client, batch.batchId);
		expect(listed.items.map((item) => item.model.id).sort()).toEqual([
			"local",
			"painter",
			"square",
		]);
		expect(new Set(listed.items.map((item) => item.aspect_ratio))).toEqual(new Set(["--ar 1:1"]));
	});

	it("refuses a comparison a model cannot make with 400 naming models and the model, starting none", async () => {
		const person = await createTestUser(server);
		const cases: [Record<string, unknown>, string][] = [
			[{ models: ["local", "square"], aspectRatio: "--ar 16:9" }, "models: square: aspectRatio"],
			[{ models: ["local"] }, "models must be 2 to 4"],
			[{ models: ["local", "local"] }, "models must be 2 to 4"],
			[{ models: ["local", "painter", "square", "a", "b"] }, "models must be 2 to 4"],
			[{ models: ["local", "nowhere"] }, 'models: model "nowhere" is not offered'],
			[{ models: ["local", "painter"], model: "local" }, "models: send model or models"],
		];
		for (const [body, start] of cases) {
			const response = await person.client.request("/api/generations", {
				method: "POST",
				json: { prompt: "a lighthouse", aspectRatio: "--ar 1:1", ...body },
			});
			const message = await expectErrorEnvelope(response, 400, "VALIDATION_ERROR");
			expect(message.startsWith(start), message).toBe(true);
		}
		expect(await countGenerations(server, person)).toBe(0);
	});

	it("starts a batch over the concurrency quota not at all", async () => {
		const person = await createTestUser(server);
		await sql`update people set max_active = 4 where user_id = ${person.userId}`.execute(
			server.database.db,
		);
		await startBatch(person.client, { prompt: "{a|b}", variations: "all" });
		const refused = await person.client.request("/api/generations", {
			method: "POST",
			json: { prompt: "{a|b|c}", aspectRatio: "--ar 1:1", variations: "all" },
		});
		expect(await expectErrorEnvelope(refused, 429, "QUOTA_EXCEEDED")).toBe(
			"This makes 3 generations, and you already have 2 in progress (the limit is 4). Please make fewer, or wait for some to finish.",
		);
		expect(await countGenerations(server, person)).toBe(2);
		await startBatch(person.client, { prompt: "{a|b}", variations: "all" });
		expect(await countGenerations(server, person)).toBe(4);
	});

	it("lets one of two batches racing for the last of the daily quota start, and nothing of the other", async () => {
		const person = await createTestUser(server);
		await sql`update people set daily_limit = 5 where user_id = ${person.userId}`.execute(
			server.database.db,
		);
		await startBatch(person.client, { prompt: "{a|b}", variations: "all" });
		const race = await Promise.all(
			["{c|d|e}", "{f|g|h}"].map((prompt) =>
				person.client.request("/api/generations", {
					method: "POST",
					json: { prompt, aspectRatio: "--ar 1:1", variations: "all" },
				}),
			),
		);
		expect(race.map((response) => response.status).sort()).toEqual([201, 429]);
		const loser = race.find((response) => response.status === 429);
		if (loser) {
			expect(await expectErrorEnvelope(loser, 429, "QUOTA_EXCEEDED")).toContain(
				"0 are left of today's limit of 5",
			);
		}
		expect(await countGenerations(server, person)).toBe(5);
	});

	it("shows a batch to its owner and the administrator only", async () => {
		const owner = await createTestUser(server);
		const other = await createTestUser(server);
		const admin = await createTestAdministrator(server);
		const batch = await startBatch(owner.client, { prompt: "{a|b}", variations: "all" });
		expect((await listBatch(owner.client, batch.batchId)).total).toBe(2);
		const theirs = await listBatch(other.client, batch.batchId);
		expect(theirs.items).toEqual([]);
		expect(theirs.total).toBe(0);
		expect((await listBatch(admin.client, batch.batchId)).total).toBe(2);
		const malformed = await owner.client.request("/api/generations?batch=not-a-batch");
		expect(await expectErrorEnvelope(malformed, 400, "VALIDATION_ERROR")).toContain("batch");
	});

	it("starts a batch with a generate token and lists it with a read token, which cannot start one", async () => {
		const person = await createTestUser(server);
		const generate = await createToken(person, ["generate"]);
		const read = await createToken(person, ["read"]);
		const body = { prompt: "a {red|blue} kite", aspectRatio: "--ar 1:1", variations: "all" };
		const started = await callWithToken(server, generate.token, "/api/generations", {
			method: "POST",
			json: body,
		});
		expect(started.status).toBe(201);
		const batch = CreateBatchResponseSchema.parse(await started.json());
		const listed = await callWithToken(
			server,
			read.token,
			`/api/generations?batch=${batch.batchId}`,
		);
		expect(listed.status).toBe(200);
		expect(GenerationPageSchema.parse(await listed.json()).total).toBe(2);
		const refused = await callWithToken(server, read.token, "/api/generations", {
			method: "POST",
			json: body,
		});
		expect(refused.status).toBe(403);
		expect(await countGenerations(server, person)).toBe(2);
	});

	it("answers a batch's Idempotency-Key again with the same batch, started once", async () => {
		const person = await createTestUser(server);
		const send = () =>
			person.client.request("/api/generations", {
				method: "POST",
				headers: { "idempotency-key": "batch-1" },
				json: { prompt: "{a|b|c}", aspectRatio: "--ar 1:1", variations: "all" },
			});
		const first = await send();
		expect(first.status).toBe(201);
		const again = await send();
		expect(again.status).toBe(201);
		expect(again.headers.get("idempotent-replayed")).toBe("true");
		const [made, replayed] = [
			CreateBatchResponseSchema.parse(await first.json()),
			CreateBatchResponseSchema.parse(await again.json()),
		];
		expect(replayed.batchId).toBe(made.batchId);
		expect(replayed.generations.map((generation) => generation.id).sort()).toEqual(
			made.generations.map((generation) => generation.id).sort(),
		);
		expect(await countGenerations(server, person)).toBe(3);
	});

	async function startKeyedTwice(person: Person, key: string, body: Record<string, unknown>) {
		const send = () =>
			person.client.request("/api/generations", {
				method: "POST",
				headers: { "idempotency-key": key },
				json: { aspectRatio: "--ar 1:1", ...body },
			});
		const first = await send();
		expect(first.status).toBe(201);
		const again = await send();
		expect(again.headers.get("idempotent-replayed")).toBe("true");
		return [
			CreateBatchResponseSchema.parse(await first.json()),
			CreateBatchResponseSchema.parse(await again.json()),
		] as const;
	}

	it("answers a replayed batch the seed it drew, though its first model takes none", async () => {
		const person = await createTestUser(server);
		const [made, replayed] = await startKeyedTwice(person, "compare-1", {
			prompt: "a harbour at night",
			models: ["painter", "local"],
		});
		expect(made.generations.map((generation) => generation.settings.seed)).toEqual([
			null,
			made.seed,
		]);
		expect(made.seed).toEqual(expect.any(Number));
		expect(replayed.seed).toBe(made.seed);
	});

	it("answers a null seed, made and replayed, for a batch that follows none", async () => {
		const person = await createTestUser(server);
		const [made, replayed] = await startKeyedTwice(person, "compare-2", {
			prompt: "a harbour at noon",
			models: ["painter", "sketcher"],
		});
		expect(made.seed).toBeNull();
		expect(replayed.seed).toBeNull();

		const [picked, pickedAgain] = await startKeyedTwice(person, "compare-3", {
			prompt: "a {red|green|blue} harbour",
			models: ["painter", "sketcher"],
			variations: { random: 2 },
			seed: 5,
		});
		expect(picked.seed).toBe(5);
		expect(pickedAgain.seed).toBe(5);
	});
});
