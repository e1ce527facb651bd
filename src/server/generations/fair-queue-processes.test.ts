import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CreateGenerationResponseSchema, PollResponseSchema } from "../../shared/generations";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../testing/fakes/http-image-service";
import { findFreePort } from "../testing/postgres-cluster";
import {
	buildServerBundle,
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitFor,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

const SECRET = "fair-queue-processes-secret-at-least-32-characters";

/** A job the fake provider never finishes until the test lets it (latency back to zero). */
const UNTIL_RELEASED_MS = 10 * 60_000;

type Session = Awaited<ReturnType<typeof signUpOn>>;

/**
 * The fair queue (decision 020) across real server processes: two spawned servers on one new
 * PostgreSQL database, each with one worker (GENERATION_CONCURRENCY=1), so two generations run at
 * a time and every claim races the other process's. The provider holds every job until the test
 * releases it, so what waits and what runs is known; the start order is read from the recorded
 * `started_at` of each generation, never from timings.
 */
describe.skipIf(!inject("postgresUrl"))("the fair queue across server processes", () => {
	let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
	let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
	let dataDir: string;
	let provider: FakeHttpImageService;
	let servers: ServerProcess[] = [];
	const sql = () => new pg.Client({ connectionString: database.url });

	beforeAll(async () => {
		bundle = await buildServerBundle();
		database = await createEmptyPostgresDatabase();
		dataDir = await mkdtemp(path.join(".tmp", "fair-queue-"));
		provider = await startFakeHttpImageService({ latencyMs: UNTIL_RELEASED_MS });
		const ports = await Promise.all([findFreePort(), findFreePort()]);
		servers = ports.map((port) =>
			spawnServer(bundle.entry, {
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
		await bundle?.remove();
	});

	function server(index: number): ServerProcess {
		const found = servers[index % servers.length];
		if (!found) throw new Error("no server");
		return found;
	}

	async function queueGeneration(on: ServerProcess, session: Session, prompt: string) {
		const response = await fetch(`${on.origin}/api/generations`, {
			method: "POST",
			headers: session,
			body: JSON.stringify({ prompt, aspectRatio: "--ar 1:1" }),
		});
		expect(response.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await response.json());
		if (!created.success) throw new Error(created.error.message);
		return created.id;
	}

	/** What a poll (answered at once, by `on`) says of the generation's place in Atelier's queue. */
	async function positionPolled(on: ServerProcess, session: Session, id: string) {
		const response = await fetch(`${on.origin}/api/generations/${id}/status?wait=0`, {
			headers: session,
		});
		const poll = PollResponseSchema.parse(await response.json());
		expect(poll.status).toBe("queued");
		expect(poll.progress?.stage).toBe("queued");
		return poll.progress?.position;
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
