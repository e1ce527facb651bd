import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	GenerationSchema,
	PollResponseSchema,
} from "../../../shared/generations/generations";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../../testing/fakes/http-image-service";
import { findFreePort } from "../../testing/postgres-cluster";
import {
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitFor,
	waitUntilHealthy,
} from "../../testing/server-process";
import { createEmptyPostgresDatabase } from "../../testing/test-database";

const SECRET = "fair-queue-processes-secret-at-least-32-characters";

/** A job the fake provider never finishes until the test lets it (latency back to zero). */
const UNTIL_RELEASED_MS = 10 * 60_000;

type Session = Awaited<ReturnType<typeof signUpOn>>;

async function queueGeneration(
	on: ServerProcess,
	session: Session,
	prompt: string,
	settings: Record<string, unknown> = {},
) {
	const response = await fetch(`${on.origin}/api/generations`, {
		method: "POST",
		headers: session,
		body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1", ...settings }),
	});
	expect(response.status).toBe(201);
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(created.error.message);
	return created.id;
}

async function poll(on: ServerProcess, session: Session, id: string) {
	const response = await fetch(`${on.origin}/api/generations/${id}/status?wait=0`, {
		headers: session,
	});
	return PollResponseSchema.parse(await response.json());
}

/** What a poll (answered at once, by `on`) says of the generation's place in Atelier's queue. */
async function positionPolled(on: ServerProcess, session: Session, id: string) {
	const answer = await poll(on, session, id);
	expect(answer.status).toBe("queued");
	expect(answer.progress?.stage).toBe("queued");
	return answer.progress?.position;
}

/**
 * The fair queue (decision 020) across real server processes: two spawned servers on one new
 * PostgreSQL database, each with one worker (GENERATION_CONCURRENCY=1), so two generations run at
 * a time and every claim races the other process's. The provider holds every job until the test
 * releases it, so what waits and what runs is known; the start order is read from the recorded
 * `started_at` of each generation, never from timings.
 */
describe.skipIf(!inject("postgresUrl"))("the fair queue across server processes", () => {
	let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
	let dataDir: string;
	let provider: FakeHttpImageService;
	let servers: ServerProcess[] = [];
	const sql = () => new pg.Client({ connectionString: database.url });

	beforeAll(async () => {
		database = await createEmptyPostgresDatabase();
		dataDir = await mkdtemp(path.join(".tmp", "fair-queue-"));
		provider = await startFakeHttpImageService({ latencyMs: UNTIL_RELEASED_MS });
		const ports = await Promise.all([findFreePort(), findFreePort()]);
		servers = ports.map((port) =>
			spawnServer(inject("serverEntry"), {
				PORT: String(port),
				// Both behind one address, as replicas behind a load balancer.
				BASE_URL: `http://127.0.0.1:${ports[0]}`,
				BETTER_AUTH_SECRET: SECRET,
				AUTH_RATE_LIMIT_ENABLED: "false",
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				IMAGE_PROVIDER: "http",
				IMAGE_API_URL: provider.url,
				GENERATION_CONCURRENCY: "1",
				MAX_ACTIVE_GENERATIONS_PER_USER: "10",
				LOG_LEVEL: "info",
			}),
		);
		await Promise.all(servers.map((server) => waitUntilHealthy(server)));
	}, 120_000);

	afterAll(async () => {
		await Promise.all(servers.map((server) => server.kill()));
		await provider?.stop();
		await database?.drop();
		await rm(dataDir, { recursive: true, force: true });
	});

	function server(index: number): ServerProcess {
		const found = servers[index % servers.length];
		if (!found) throw new Error("no server");
		return found;
	}

	it("starts a person's one generation right after the ones running, not after another's queued ones, and polls say so", async () => {
		const db = sql();
		await db.connect();
		try {
			const ada = await signUpOn(server(0).origin, "ada@example.com");
			const bo = await signUpOn(server(1).origin, "bo@example.com", server(0).origin);

			// Ada queues four, through both processes: each process's one worker takes one of them.
			const adas: string[] = [];
			for (let index = 0; index < 4; index++) {
				adas.push(await queueGeneration(server(index), ada, `ada ${index + 1}`));
			}
			const running = await waitFor("both workers to run one of Ada's", async () => {
				const result = await db.query<{ id: string }>(
					"select id from generations where status = 'running' and api_id is not null",
				);
				return result.rows.length === 2 ? result.rows.map((row) => row.id) : undefined;
			});
			const adaStillQueued = adas.filter((id) => !running.includes(id));
			expect(adaStillQueued).toHaveLength(2);

			// Bo queues one: next, ahead of Ada's two that wait, whichever process is asked.
			const bos = await queueGeneration(server(1), bo, "bo 1");
			expect(await positionPolled(server(0), bo, bos)).toBe(0);
			expect(await positionPolled(server(1), bo, bos)).toBe(0);
			expect(await positionPolled(server(0), ada, adaStillQueued[0] ?? "")).toBe(1);
			expect(await positionPolled(server(1), ada, adaStillQueued[1] ?? "")).toBe(2);

			// Every job may finish now; the order things started in is what the rows recorded.
			provider.setBehaviour({ latencyMs: 0 });
			await waitFor(
				"every generation to complete",
				async () => {
					const result = await db.query<{ done: string }>(
						"select count(*) as done from generations where status = 'completed'",
					);
					return Number(result.rows[0]?.done) === 5 ? true : undefined;
				},
				90_000,
			);
			const started = await db.query<{ id: string }>(
				"select id from generations order by started_at, id",
			);
			const order = started.rows.map((row) => row.id);
			expect(new Set(order.slice(0, 2))).toEqual(new Set(running));
			expect(order.slice(2)).toEqual([bos, ...adaStillQueued]);
			// Each started once: no claim gave a generation a second run.
			const attempts = await db.query<{ attempts: number }>("select attempts from generations");
			expect(attempts.rows.map((row) => row.attempts)).toEqual([1, 1, 1, 1, 1]);
		} finally {
			await db.end();
		}
	}, 180_000);
});

/**
 * Two models of the offline engine: "quick", whose time is long enough that every request below is
 * made while the first one runs, and "slow", which keeps the second process's worker busy until
 * everything else has started.
 */
const MODELS = [
	{ id: "quick", label: "Quick", provider: "local", delayMs: 1_500, default: true },
	{ id: "slow", label: "Slow", provider: "local", delayMs: 8_000 },
];

const SETUPS = [
	{ setup: "one embedded server (PGlite)", isPostgres: false, processes: 1 },
	{ setup: "one server on PostgreSQL", isPostgres: true, processes: 1 },
	{ setup: "two servers on PostgreSQL", isPostgres: true, processes: 2 },
].filter((setup) => !setup.isPostgres || inject("postgresUrl"));

/**
 * The order generations finish in, with real processes and the offline engine taking its time:
 * each worker runs one generation after another, and what the positions said must be what
 * happens, as people see it (their generations' completion times).
 */
describe.each(SETUPS)("the fair queue's turns on $setup", ({ isPostgres, processes }) => {
	let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>> | undefined;
	let dataDir: string;
	let servers: ServerProcess[] = [];

	beforeAll(async () => {
		database = isPostgres ? await createEmptyPostgresDatabase() : undefined;
		dataDir = await mkdtemp(path.join(".tmp", "fair-queue-turns-"));
		const modelsFile = path.join(dataDir, "models.json");
		await writeFile(modelsFile, JSON.stringify(MODELS));
		const ports = await Promise.all(Array.from({ length: processes }, () => findFreePort()));
		servers = ports.map((port) =>
			spawnServer(inject("serverEntry"), {
				PORT: String(port),
				BASE_URL: `http://127.0.0.1:${ports[0]}`,
				BETTER_AUTH_SECRET: SECRET,
				AUTH_RATE_LIMIT_ENABLED: "false",
				...(database ? { DATABASE_URL: database.url } : {}),
				DATA_DIR: dataDir,
				MODELS_FILE: modelsFile,
				GENERATION_CONCURRENCY: "1",
				MAX_ACTIVE_GENERATIONS_PER_USER: "10",
				LOG_LEVEL: "warn",
			}),
		);
		await Promise.all(servers.map((server) => waitUntilHealthy(server)));
	}, 120_000);

	afterAll(async () => {
		await Promise.all(servers.map((server) => server.kill()));
		await database?.drop();
		await rm(dataDir, { recursive: true, force: true });
	});

	function server(index: number): ServerProcess {
		const found = servers[index % servers.length];
		if (!found) throw new Error("no server");
		return found;
	}

	type Queued = { id: string; session: Session };
	async function queue(
		index: number,
		session: Session,
		prompt: string,
		model = "quick",
	): Promise<Queued> {
		const id = await queueGeneration(server(index), session, prompt, { model, count: 1 });
		return { id, session };
	}

	async function waitUntilRunning(index: number, { id, session }: Queued): Promise<void> {
		await waitFor("the generation to run", async () =>
			(await poll(server(index), session, id)).status === "running" ? true : undefined,
		);
	}

	/** Every generation's id once all have completed, in the order they completed. */
	async function completionOrder(generations: Queued[]): Promise<string[]> {
		const completed = await waitFor("every generation to complete", async () => {
			const read = await Promise.all(
				generations.map(async ({ id, session }) => {
					const response = await fetch(`${server(0).origin}/api/generations/${id}`, {
						headers: session,
					});
					return GenerationSchema.parse(await response.json());
				}),
			);
			return read.every((generation) => generation.status === "completed") ? read : undefined;
		});
		return completed
			.map((generation) => ({ id: generation.id, at: Date.parse(generation.completed_at ?? "") }))
			.sort((a, b) => a.at - b.at)
			.map((generation) => generation.id);
	}

	/** Every generation's id in the order the rows say they started (PostgreSQL only). */
	async function startOrder(url: string): Promise<string[]> {
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		try {
			const result = await client.query<{ id: string }>(
				"select id from generations order by started_at, id",
			);
			return result.rows.map((row) => row.id);
		} finally {
			await client.end();
		}
	}

	it("runs a person's one generation right after the ones running, as its position 0 said, though another person's first began before it was asked for", async () => {
		const origin = server(0).origin;
		const ada = await signUpOn(origin, "ada@example.com");
		const bo = await signUpOn(server(1).origin, "bo@example.com", origin);
		const others = await Promise.all(
			servers.slice(1).map((_, index) => signUpOn(origin, `cy${index}@example.com`)),
		);

		// Ada's first runs before anything else is asked for; on two processes, someone else's
		// slow one runs on the other worker, started after it and ending after it.
		const running = [await queue(0, ada, "ada 1")];
		await waitUntilRunning(0, running[0] as Queued);
		for (const [index, other] of others.entries()) {
			const generation = await queue(index + 1, other, `cy ${index}`, "slow");
			await waitUntilRunning(index + 1, generation);
			running.push(generation);
		}

		// Within a moment: Ada's next two, then Bo's one.
		const adaSecond = await queue(0, ada, "ada 2");
		const adaThird = await queue(1, ada, "ada 3");
		const boFirst = await queue(1, bo, "bo 1");
		expect(await positionPolled(server(0), bo, boFirst.id)).toBe(0);
		expect(await positionPolled(server(1), ada, adaSecond.id)).toBe(1);
		expect(await positionPolled(server(0), ada, adaThird.id)).toBe(2);

		const finished = await completionOrder([...running, adaSecond, adaThird, boFirst]);
		const runningIds = running.map(({ id }) => id);
		const queuedInOrder = [boFirst.id, adaSecond.id, adaThird.id];
		// One worker ends each generation before it starts the next: people see them finish in
		// the order of the positions. Two run side by side, and may end either way round; the
		// rows say in which order they started.
		if (processes === 1) expect(finished).toEqual([...runningIds, ...queuedInOrder]);
		if (database) {
			const started = await startOrder(database.url);
			expect(new Set(started.slice(0, running.length))).toEqual(new Set(runningIds));
			expect(started.slice(running.length)).toEqual(queuedInOrder);
		}
	}, 90_000);
});
