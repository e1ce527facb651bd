import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Generation } from "../../shared/generations";
import { startFakeHttpImageService } from "../testing/fakes/http-image-service";
import { findFreePort } from "../testing/postgres-cluster";
import { startS3Server } from "../testing/s3-server";
import {
	buildServerBundle,
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitFor,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

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

describe.skipIf(!inject("postgresUrl"))("several server processes on one new PostgreSQL", () => {
	let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
	beforeAll(async () => {
		bundle = await buildServerBundle();
	});
	afterAll(async () => {
		await bundle.remove();
	});

	it("start together on an empty database: every replica comes up", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "replicas-"));
		let replicas: ServerProcess[] = [];
		try {
			replicas = await startReplicasTogether(bundle.entry, 4, {
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
			replicas = await startReplicasTogether(bundle.entry, 3, {
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				IMAGE_PROVIDER: "http",
				IMAGE_API_URL: provider.url,
				GENERATION_CONCURRENCY: "4",
				STORAGE: "s3",
				S3_BUCKET: s3.bucket,
				S3_REGION: s3.region,
				S3_ENDPOINT: s3.endpoint,
				S3_FORCE_PATH_STYLE: "true",
				S3_ACCESS_KEY_ID: s3.accessKeyId,
				S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
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
					ids.push(((await response.json()) as { id: string }).id);
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
				const runsOf = (replica: ServerProcess) =>
					new Set(
						replica
							.logs()
							.filter((line) => line.message === "running generation")
							.map((line) => String(line.generationId)),
					);
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
						const generation = (await (
							await fetch(`${survivor.origin}/api/generations/${id}`, { headers: session })
						).json()) as Generation;
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
});
