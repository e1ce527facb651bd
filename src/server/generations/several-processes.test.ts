import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	GenerationSchema,
	type PollResponse,
	PollResponseSchema,
} from "../../shared/generations/generations";
import { BulkDeleteResponseSchema } from "../../shared/history/history-responses";
import { openPostgresDatabase } from "../db/database";
import type { StoredImage } from "../db/schema";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer } from "../server";
import { startFakeHttpImageService } from "../testing/fakes/http-image-service";
import { findFreePort } from "../testing/postgres-cluster";
import { startS3Server } from "../testing/s3-server";
import {
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitFor,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";
import { createTestServer, createTestUser, TestClient } from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";

const SECRET = "several-processes-secret-at-least-32-characters";

/** Starts `count` server processes at the same moment, as replicas behind one load balancer. */
async function startReplicasTogether(
	entry: string,
	count: number,
	env: Record<string, string>,
): Promise<ServerProcess[]> {
	const ports = await Promise.all(Array.from({ length: count }, () => findFreePort()));
	const baseUrl = `http://127.0.0.1:${ports[0]}`;
	const replicas = ports.map((port) =>
		spawnServer(entry, {
			PORT: String(port),
			BASE_URL: baseUrl,
			BETTER_AUTH_SECRET: SECRET,
			AUTH_RATE_LIMIT_ENABLED: "false",
			LOG_LEVEL: "info",
			...env,
		}),
	);
	const started = await Promise.allSettled(replicas.map((replica) => waitUntilHealthy(replica)));
	const failures = started.flatMap((result) =>
		result.status === "rejected" ? [String(result.reason)] : [],
	);
	if (failures.length > 0) {
		await Promise.all(replicas.map((replica) => replica.kill()));
		throw new Error(
			`${failures.length} of ${count} replicas did not start:\n${failures.join("\n")}`,
		);
	}
	return replicas;
}

/** The environment that makes replicas share one bucket of s3rver, as replicas on several machines do. */
function s3Env(s3: Awaited<ReturnType<typeof startS3Server>>): Record<string, string> {
	return {
		STORAGE: "s3",
		S3_BUCKET: s3.bucket,
		S3_REGION: s3.region,
		S3_ENDPOINT: s3.endpoint,
		S3_FORCE_PATH_STYLE: "true",
		S3_ACCESS_KEY_ID: s3.accessKeyId,
		S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
	};
}

/** The ids of the generations a replica has started a run of, from its log. */
function runsOf(replica: ServerProcess): Set<string> {
	return new Set(
		replica
			.logs()
			.filter((line) => line.message === "running generation")
			.map((line) => String(line.generationId)),
	);
}

/** Every key the generations' rows name: each image's original, display copy and thumbnail. */
async function namedKeys(sql: pg.Client): Promise<string[]> {
	const rows = await sql.query<{ images: StoredImage[] }>("select images from generations");
	return rows.rows
		.flatMap((row) =>
			row.images.flatMap((image) => [image.key, image.displayKey ?? "", image.thumbnailKey]),
		)
		.filter((key) => key !== "")
		.sort();
}

describe.skipIf(!inject("postgresUrl"))("several server processes on one PostgreSQL", () => {
	it("a poll held by one process learns at once of a generation another process's worker finished", async () => {
		// "Process" A runs the workers; "process" B has none and its own connections, like a second
		// server behind the load balancer that holds the browser's poll.
		const workerProcess = await createTestServer("postgres", {
			provider: createLocalProvider({ delayMs: 400 }),
		});
		const connectionString = workerProcess.database.connectionString ?? "";
		const pollDatabase = openPostgresDatabase(connectionString, createSilentLogger(), { max: 3 });
		const pollProcess = await assembleServer({
			database: pollDatabase,
			logger: createSilentLogger(),
			settings: createTestSettings(),
			storage: workerProcess.storage,
			models: createLocalProvider({ delayMs: 400 }),
			isWorkerEnabled: false,
		});
		try {
			const { email, password } = await createTestUser(workerProcess);
			const client = new TestClient(pollProcess);
			await client.request("/api/auth/sign-in/email", {
				method: "POST",
				json: { email, password },
			});

			const created = CreateGenerationResponseSchema.parse(
				await (
					await client.request("/api/generations", {
						method: "POST",
						json: { prompt: "two processes", aspectRatio: "--ar 1:1" },
					})
				).json(),
			);
			if (!created.success) throw new Error(created.error.message);

			let poll: PollResponse | undefined;
			const started = Date.now();
			while (Date.now() - started < 30_000) {
				// A long wait: only a NOTIFY from the other process can end it early.
				poll = PollResponseSchema.parse(
					await (await client.request(`${created.pollingUrl}?wait=20000`)).json(),
				);
				if (poll.status === "completed" || poll.status === "failed") break;
			}
			expect(poll?.status).toBe("completed");
			expect(poll?.results).toHaveLength(4);
			// Well under one 20 s wait: every answer came from a notification, not a timeout.
			expect(Date.now() - started).toBeLessThan(15_000);
		} finally {
			await pollProcess.stop();
			await pollDatabase.close();
			await workerProcess.close();
		}
	});
});

describe.skipIf(!inject("postgresUrl"))("several server processes on one new PostgreSQL", () => {
	beforeAll(async () => {});
	afterAll(async () => {});

	it("start together on an empty database: every replica comes up", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "replicas-"));
		let replicas: ServerProcess[] = [];
		try {
			replicas = await startReplicasTogether(inject("serverEntry"), 4, {
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
			});
			for (const replica of replicas) {
				expect((await fetch(`${replica.origin}/api/health`)).status).toBe(200);
			}
		} finally {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await database.drop();
			await rm(dataDir, { recursive: true, force: true });
		}
	}, 120_000);

	it("finish every generation exactly once, images readable, when one is killed while it runs generations", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "replicas-"));
		const provider = await startFakeHttpImageService({ latencyMs: 6_000 });
		// Images in one S3-protocol bucket, as replicas on several machines share them.
		const s3 = await startS3Server();
		const sql = new pg.Client({ connectionString: database.url });
		let replicas: ServerProcess[] = [];
		try {
			replicas = await startReplicasTogether(inject("serverEntry"), 3, {
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				IMAGE_PROVIDER: "http",
				IMAGE_API_URL: provider.url,
				GENERATION_CONCURRENCY: "4",
				...s3Env(s3),
			});
			await sql.connect();

			// Three people, each starting three generations through a different replica.
			const ids: string[] = [];
			const sessions = [];
			for (const [index, replica] of replicas.entries()) {
				const session = await signUpOn(
					replica.origin,
					`person${index}@example.com`,
					replicas[0]?.origin,
				);
				sessions.push(session);
				for (const aspectRatio of ["--ar 1:1", "--ar 16:9", "--ar 9:16"]) {
					const target = replicas[(index + ids.length) % replicas.length] ?? replica;
					const response = await fetch(`${target.origin}/api/generations`, {
						method: "POST",
						headers: session,
						body: JSON.stringify({ prompt: `replica ${index} ${aspectRatio}`, aspectRatio }),
					});
					expect(response.status).toBe(201);
					const created = CreateGenerationResponseSchema.parse(await response.json());
					if (!created.success) throw new Error(created.error.message);
					ids.push(created.id);
				}
			}

			// One job per generation at any moment, checked all along.
			let mostJobsForOneGeneration = 0;
			const watchJobs = setInterval(() => {
				sql
					.query<{ count: string }>(
						"select count(*) from pgboss.job where name = 'generation' group by data->>'generationId' order by 1 desc limit 1",
					)
					.then((result) => {
						mostJobsForOneGeneration = Math.max(
							mostJobsForOneGeneration,
							Number(result.rows[0]?.count ?? 0),
						);
					})
					.catch(() => {});
			}, 50);

			try {
				await waitFor("every generation to be running at the provider", async () => {
					const result = await sql.query<{ running: string }>(
						"select count(*) as running from generations where status = 'running' and api_id is not null",
					);
					return Number(result.rows[0]?.running) === ids.length ? true : undefined;
				});
				expect(provider.startCount()).toBe(ids.length);

				// Kill the replica running the most generations, while it runs them.
				const victim = [...replicas].sort((a, b) => runsOf(b).size - runsOf(a).size)[0];
				if (!victim) throw new Error("no replica");
				const orphaned = runsOf(victim);
				expect(orphaned.size).toBeGreaterThan(0);
				await victim.kill("SIGKILL");
				const survivors = replicas.filter((replica) => replica !== victim);

				await waitFor(
					"every generation to complete",
					async () => {
						const result = await sql.query<{ done: string }>(
							"select count(*) as done from generations where status in ('completed', 'failed')",
						);
						return Number(result.rows[0]?.done) === ids.length ? true : undefined;
					},
					90_000,
				);

				// Started once each at the provider: the orphans' runs resumed the saved job.
				expect(provider.startCount()).toBe(ids.length);
				const rows = await sql.query<{ id: string; status: string; attempts: number }>(
					"select id, status, attempts from generations",
				);
				for (const row of rows.rows) {
					expect(row.status).toBe("completed");
					// Claimed once, or twice when its first run died with the killed replica.
					expect(row.attempts).toBe(orphaned.has(row.id) ? 2 : 1);
				}
				for (const [index, id] of ids.entries()) {
					const session = sessions[Math.floor(index / 3)];
					for (const survivor of survivors) {
						const generation = GenerationSchema.parse(
							await (
								await fetch(`${survivor.origin}/api/generations/${id}`, { headers: session })
							).json(),
						);
						expect(generation.images).toHaveLength(4);
						for (const image of generation.images) {
							const response = await fetch(`${survivor.origin}${image.url}`, { headers: session });
							expect(response.status).toBe(200);
						}
					}
					// Exactly one run stored images (one folder of 12: originals, display copies,
					// thumbnails), and nothing else is left behind.
					const keys = await s3.listKeys(`generations/${id}/`);
					expect(keys).toHaveLength(12);
					expect(new Set(keys.map((key) => key.split("/")[2])).size).toBe(1);
				}
			} finally {
				clearInterval(watchJobs);
			}
			expect(mostJobsForOneGeneration).toBe(1);
		} finally {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await sql.end().catch(() => {});
			await provider.stop();
			await s3.stop();
			await database.drop();
			await rm(dataDir, { recursive: true, force: true });
		}
	}, 180_000);

	it("a replica killed while it stores a generation's images leaves no object that no generation names, and deleting removes every object", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "replicas-"));
		// Each image URL answers slowly, so a run spends seconds between its first stored object and
		// its last: the kill lands while a run has stored some of its images.
		const provider = await startFakeHttpImageService({
			latencyMs: 2_000,
			behaviour: { imageLatencyMs: 1_000 },
		});
		const s3 = await startS3Server();
		const sql = new pg.Client({ connectionString: database.url });
		let replicas: ServerProcess[] = [];
		try {
			replicas = await startReplicasTogether(inject("serverEntry"), 3, {
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				IMAGE_PROVIDER: "http",
				IMAGE_API_URL: provider.url,
				GENERATION_CONCURRENCY: "4",
				MAX_ACTIVE_GENERATIONS_PER_USER: "10",
				...s3Env(s3),
			});
			await sql.connect();

			// Three people, ten generations each, spread over the replicas.
			const people: Array<{ session: Awaited<ReturnType<typeof signUpOn>>; ids: string[] }> = [];
			for (const [index, replica] of replicas.entries()) {
				const session = await signUpOn(
					replica.origin,
					`stored${index}@example.com`,
					replicas[0]?.origin,
				);
				const ids: string[] = [];
				for (let number = 0; number < 10; number++) {
					const target = replicas[(index + number) % replicas.length] ?? replica;
					const response = await fetch(`${target.origin}/api/generations`, {
						method: "POST",
						headers: session,
						body: JSON.stringify({ prompt: `stored ${index} ${number}`, aspectRatio: "--ar 1:1" }),
					});
					expect(response.status).toBe(201);
					const created = CreateGenerationResponseSchema.parse(await response.json());
					if (!created.success) throw new Error(created.error.message);
					ids.push(created.id);
				}
				people.push({ session, ids });
			}

			// Kill a replica at the moment one of its runs has stored part of a generation's images.
			const { victim, interrupted } = await waitFor(
				"a replica to be storing a generation's images",
				async () => {
					const running = await sql.query<{ id: string }>(
						"select id from generations where status = 'running'",
					);
					for (const replica of replicas) {
						const runs = runsOf(replica);
						for (const { id } of running.rows) {
							if (runs.has(id) && (await s3.listKeys(`generations/${id}/`)).length > 0) {
								return { victim: replica, interrupted: id };
							}
						}
					}
					return undefined;
				},
				60_000,
			);
			await victim.kill("SIGKILL");
			const survivor = replicas.find((replica) => replica !== victim);
			if (!survivor) throw new Error("no survivor");

			await waitFor(
				"every generation to complete",
				async () => {
					const result = await sql.query<{ done: string }>(
						"select count(*) as done from generations where status in ('completed', 'failed')",
					);
					return Number(result.rows[0]?.done) === 30 ? true : undefined;
				},
				120_000,
			);
			const rows = await sql.query<{ status: string; attempts: number }>(
				"select status, attempts from generations where id = $1",
				[interrupted],
			);
			// Its first run died with the killed replica; a survivor's run finished it.
			expect(rows.rows[0]).toEqual({ status: "completed", attempts: 2 });

			// The bucket holds exactly what the generations name: nothing of the killed run is left.
			const named = await namedKeys(sql);
			expect(named).toHaveLength(30 * 4 * 3);
			expect(await s3.listKeys()).toEqual(named);

			// Deleting every generation for good empties the bucket.
			for (const person of people) {
				const response = await fetch(
					`${survivor.origin}/api/generations/bulk-delete?permanent=true`,
					{
						method: "POST",
						headers: person.session,
						body: JSON.stringify({ ids: person.ids }),
					},
				);
				expect(BulkDeleteResponseSchema.parse(await response.json())).toEqual({
					success: true,
					deleted: 10,
					permanent: true,
				});
			}
			expect(await s3.listKeys()).toEqual([]);
		} finally {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await sql.end().catch(() => {});
			await provider.stop();
			await s3.stop();
			await database.drop();
			await rm(dataDir, { recursive: true, force: true });
		}
	}, 240_000);
});
