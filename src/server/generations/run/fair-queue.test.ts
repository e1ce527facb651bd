import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	ActiveGenerationsSchema,
	GenerationSchema,
	PollResponseSchema,
} from "../../../shared/generations/generation-responses";
import { progressReport } from "../../../shared/generations/progress";
import { availableDatabaseKinds } from "../../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../../testing/test-server";
import { QUEUE_MOVED_KEY } from "../generation-events";
import { claimGeneration, completeGeneration } from "./generation-lifecycle";
import { findQueuePositions } from "./queue-order";

/**
 * The fair queue as one worker (GENERATION_CONCURRENCY=1) sees it: each turn claims the next
 * generation and finishes it before the next turn. No workers run by themselves; the test takes
 * the turns.
 */
describe.each(availableDatabaseKinds())("the fair queue (%s)", (kind) => {
	let server: TestServer;
	// Each test's own generations, by name: the names repeat from one test to the next.
	const names = new Map<string, string>();
	beforeEach(async () => {
		names.clear();
		server = await createTestServer(kind, {
			isWorkerEnabled: false,
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
		});
	});
	afterEach(async () => {
		await server?.close();
	});

	/** A person who queues generations, each named by its prompt. */
	async function person() {
		const { client } = await createTestUser(server);
		return Object.assign((...prompts: string[]) => queue(client, prompts), { client });
	}

	/** What the poll answer and the generation's JSON say of its place in the queue. */
	async function positionShown(client: TestClient, prompt: string) {
		const id = [...names].find(([, name]) => name === prompt)?.[0];
		const poll = PollResponseSchema.parse(
			await (await client.request(`/api/generations/${id}/status?wait=0`)).json(),
		);
		const generation = GenerationSchema.parse(
			await (await client.request(`/api/generations/${id}`)).json(),
		);
		expect(generation.progress?.position).toBe(poll.progress?.position);
		return poll.progress?.stage === "queued" ? poll.progress.position : null;
	}

	async function queue(client: TestClient, prompts: string[]): Promise<void> {
		for (const prompt of prompts) {
			const response = await client.request("/api/generations", {
				method: "POST",
				json: { prompt, aspectRatio: "--ar 1:1" },
			});
			expect(response.status).toBe(201);
			const { id } = (await response.json()) as { id: string };
			names.set(id, prompt);
		}
	}

	/** One worker's turn: claims the next generation (its name) and leaves it running. */
	async function start(): Promise<{ name: string; finish(): Promise<void> } | undefined> {
		const token = randomUUID();
		const row = await claimGeneration(server.database.db, token, 60_000);
		if (!row) return undefined;
		return {
			name: names.get(row.id) ?? row.id,
			async finish() {
				const lease = { generationId: row.id, token };
				expect(await completeGeneration(server.database.db, lease, [])).toBeDefined();
			},
		};
	}

	/** The queued generations' names, in the order of their positions (which must run 0, 1, 2...). */
	async function queueByPosition(): Promise<string[]> {
		const rows = [...names.keys()].map((id) => ({ id, status: "queued" as const }));
		const positions = await findQueuePositions(server.database.db, rows);
		const ordered = [...positions].sort(([, a], [, b]) => a - b);
		expect(ordered.map(([, position]) => position)).toEqual(ordered.map((_, index) => index));
		return ordered.map(([id]) => names.get(id) ?? id);
	}

	/** Takes every remaining turn, one at a time, and says what started in which order. */
	async function drain(): Promise<string[]> {
		const started: string[] = [];
		for (let run = await start(); run; run = await start()) {
			started.push(run.name);
			await run.finish();
		}
		return started;
	}

	it("runs a person's one generation next, behind only the one running, not behind another's three", async () => {
		const ada = await person();
		const bo = await person();
		await ada("ada 1", "ada 2", "ada 3");
		const running = await start();
		expect(running?.name).toBe("ada 1");

		await bo("bo 1");
		expect(await queueByPosition()).toEqual(["bo 1", "ada 2", "ada 3"]);
		expect(await positionShown(bo.client, "bo 1")).toBe(0);
		expect(await positionShown(ada.client, "ada 3")).toBe(2);
		expect(await positionShown(ada.client, "ada 1")).toBeNull();

		await running?.finish();
		expect(await drain()).toEqual(["bo 1", "ada 2", "ada 3"]);
	});

	it("still counts a person's turn once it has finished: who starts next is who the positions said, even when that turn began before anyone now waiting asked", async () => {
		const ada = await person();
		const bo = await person();
		// Ada's first starts at once, before her next two and Bo's one exist.
		await ada("ada 1");
		const running = await start();
		expect(running?.name).toBe("ada 1");
		await ada("ada 2", "ada 3");
		await bo("bo 1");
		expect(await queueByPosition()).toEqual(["bo 1", "ada 2", "ada 3"]);

		await running?.finish();
		// Its end changes nobody's place: Bo's one is still next, and then starts.
		expect(await queueByPosition()).toEqual(["bo 1", "ada 2", "ada 3"]);
		expect(await positionShown(bo.client, "bo 1")).toBe(0);
		expect(await drain()).toEqual(["bo 1", "ada 2", "ada 3"]);
	});

	it("serves people who have not had a turn first come, first served, then takes turns round the people", async () => {
		const ada = await person();
		const bo = await person();
		const cy = await person();
		await ada("ada 1", "ada 2", "ada 3", "ada 4");
		const running = await start();
		expect(running?.name).toBe("ada 1");

		// Bo and Cy have had no turn: Bo asked first, so Bo goes first; each then takes one turn a round.
		await bo("bo 1", "bo 2");
		await cy("cy 1", "cy 2", "cy 3");
		const expected = ["bo 1", "cy 1", "ada 2", "bo 2", "cy 2", "ada 3", "cy 3", "ada 4"];
		expect(await queueByPosition()).toEqual(expected);

		await running?.finish();
		expect(await drain()).toEqual(expected);
	});

	it("gives each queued generation its position, 0 when next, the running one having none, and keeps it true as turns pass", async () => {
		const ada = await person();
		const bo = await person();
		await ada("ada 1", "ada 2", "ada 3");
		await bo("bo 1", "bo 2");
		// Nobody has had a turn: Ada asked first.
		expect(await queueByPosition()).toEqual(["ada 1", "bo 1", "ada 2", "bo 2", "ada 3"]);

		const started: string[] = [];
		for (let run = await start(); run; run = await start()) {
			// While it runs, what was second is next, and the running one is not counted.
			const queued = await queueByPosition();
			expect(queued).not.toContain(run.name);
			started.push(run.name);
			await run.finish();
			// The queue after each start is the queue before it, less the one that started.
			expect(await queueByPosition()).toEqual(queued);
		}
		expect(started).toEqual(["ada 1", "bo 1", "ada 2", "bo 2", "ada 3"]);
	});

	it("puts a person who comes back after their generations finished among those who have not had a turn", async () => {
		const ada = await person();
		const bo = await person();
		const cy = await person();
		await ada("ada 1");
		expect(await drain()).toEqual(["ada 1"]);

		await bo("bo 1", "bo 2", "bo 3");
		const running = await start();
		expect(running?.name).toBe("bo 1");
		// Ada's turn came before anyone now waiting asked: it delayed nobody. She and Cy have had no
		// turn in this wait, so both go before Bo, in the order they asked.
		await ada("ada 2");
		await cy("cy 1");
		expect(await queueByPosition()).toEqual(["ada 2", "cy 1", "bo 2", "bo 3"]);
		await running?.finish();
		expect(await drain()).toEqual(["ada 2", "cy 1", "bo 2", "bo 3"]);
	});

	it("answers a person's waiting list of active generations as soon as the queue moves, with the new position", async () => {
		const ada = await person();
		const bo = await person();
		await ada("ada 1", "ada 2");
		await bo("bo 1");
		const read = async (query = "") =>
			ActiveGenerationsSchema.parse(
				await (await bo.client.request(`/api/generations/active${query}`)).json(),
			);
		const before = await read();
		expect(before.items.map((item) => item.progress?.position)).toEqual([1]);

		// A wait longer than the test may last: only the queue moving can answer it in time. Whether
		// the start lands before the wait begins or during it, the answer is the changed list; the
		// start waits for it to begin, so the announcement is what must end it.
		const waiting = read(`?after=${before.version}&wait=25000`);
		await waitForQueueWaits(1);
		const running = await start();
		expect(running?.name).toBe("ada 1");
		const after = await waiting;
		expect(after.version).not.toBe(before.version);
		expect(after.items.map((item) => item.progress)).toEqual([
			progressReport("queued", { position: 0 }),
		]);
		await running?.finish();
	}, 20_000);

	/** Resolves once `count` waits on the queue's moves have begun (a poll or list waiting). */
	async function waitForQueueWaits(count: number) {
		const deadline = Date.now() + 10_000;
		while (server.countWaits(QUEUE_MOVED_KEY) < count) {
			if (Date.now() > deadline) throw new Error(`fewer than ${count} waits on the queue`);
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	}

	/** What a queued generation's poll answers: its position, and the version to name next. */
	async function pollQueued(client: TestClient, id: string, after?: string) {
		const query = after ? `?after=${after}&wait=25000` : "?wait=0";
		const poll = PollResponseSchema.parse(
			await (await client.request(`/api/generations/${id}/status${query}`)).json(),
		);
		return { position: poll.progress?.position, version: poll.version };
	}

	/** Counts the statements whose text holds `fragment`, from now on. */
	function countStatements(fragment: string) {
		let count = 0;
		const counted = new WeakSet<object>();
		server.database.pool.on("acquire", (client) => {
			if (counted.has(client)) return;
			counted.add(client);
			const query = client.query.bind(client) as (...args: unknown[]) => unknown;
			Object.assign(client, {
				query: (...args: unknown[]) => {
					const [first] = args;
					const text = typeof first === "string" ? first : (first as { text?: string })?.text;
					if (text?.includes(fragment)) count += 1;
					return query(...args);
				},
			});
		});
		return () => count;
	}

	it("answers the waiting polls of every queued generation, when the queue moves, from one reading of the fair order", async () => {
		const people = await Promise.all(Array.from({ length: 6 }, () => person()));
		for (const [index, queueOne] of people.entries()) await queueOne(`person ${index}`);
		const ids = [...names.keys()];
		const waiting = await Promise.all(
			people.slice(1).map(async ({ client }, index) => {
				const id = ids[index + 1] as string;
				const before = await pollQueued(client, id);
				return { client, id, before };
			}),
		);
		expect(waiting.map(({ before }) => before.position)).toEqual([1, 2, 3, 4, 5]);
		const polls = waiting.map(({ client, id, before }) => pollQueued(client, id, before.version));
		await waitForQueueWaits(5);
		const fairOrderReads = countStatements("queue_wait as");
		expect((await start())?.name).toBe("person 0");
		expect((await Promise.all(polls)).map((answer) => answer.position)).toEqual([0, 1, 2, 3, 4]);
		// The claim's own reading, and one for the five answers.
		expect(fairOrderReads()).toBeLessThanOrEqual(2);
	}, 20_000);

	it("reads a waiting poll's generation twice, before and after the change that answers it", async () => {
		const ada = await person();
		await ada("ada 1", "ada 2");
		const id = [...names].find(([, name]) => name === "ada 2")?.[0] as string;
		const before = await pollQueued(ada.client, id);
		const generationReads = countStatements('select * from "generations" where "id"');
		const waiting = pollQueued(ada.client, id, before.version);
		await waitForQueueWaits(1);
		expect((await start())?.name).toBe("ada 1");
		expect((await waiting).position).toBe(0);
		expect(generationReads()).toBe(2);
	}, 20_000);

	it("wakes a queued generation's waiting poll at once when the queue moves, then at most once a second however often it moves", async () => {
		const ada = await person();
		const bo = await person();
		const cy = await person();
		await ada("ada 1", "ada 2");
		await bo("bo 1");
		await cy("cy 1");
		const id = [...names].find(([, name]) => name === "cy 1")?.[0] as string;
		const before = await pollQueued(cy.client, id);
		expect(before.position).toBe(2);

		const first = pollQueued(cy.client, id, before.version);
		await waitForQueueWaits(1);
		expect((await start())?.name).toBe("ada 1");
		const moved = await first;
		const movedAt = performance.now();
		expect(moved.position).toBe(1);

		// The page asks again at once, and the queue moves again at once: the answer waits for the
		// second since the last wake to end, then says where the queue is then.
		const second = pollQueued(cy.client, id, moved.version);
		await waitForQueueWaits(1);
		expect((await start())?.name).toBe("bo 1");
		const answer = await second;
		expect(answer.position).toBe(0);
		expect(performance.now() - movedAt).toBeGreaterThanOrEqual(900);
	}, 20_000);
});
