import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
	CreateGenerationResponseSchema,
	PollResponseSchema,
} from "../../shared/generations/generations";
import { BulkDeleteResponseSchema } from "../../shared/history/history-responses";
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

const SECRET = "trash-processes-secret-at-least-32-characters";

/** How many generations a replica's log says it purged from the Trash. */
function purgedBy(replica: ServerProcess): number {
	return replica
		.logs()
		.filter((line) => line.message === "purged the Trash")
		.reduce((sum, line) => sum + Number(line.purged ?? 0), 0);
}

describe.skipIf(!inject("postgresUrl"))("the Trash's purge across server processes", () => {
	beforeAll(async () => {});
	afterAll(async () => {});

	it("two replicas starting together purge what is past TRASH_DAYS once, leaving nothing in storage", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "trash-replicas-"));
		const s3 = await startS3Server();
		const sql = new pg.Client({ connectionString: database.url });
		let replicas: ServerProcess[] = [];
		const start = async () => {
			const ports = await Promise.all([findFreePort(), findFreePort()]);
			const started = ports.map((port) =>
				spawnServer(inject("serverEntry"), {
					PORT: String(port),
					BASE_URL: `http://127.0.0.1:${ports[0]}`,
					BETTER_AUTH_SECRET: SECRET,
					AUTH_RATE_LIMIT_ENABLED: "false",
					LOG_LEVEL: "info",
					DATABASE_URL: database.url,
					DATA_DIR: dataDir,
					TRASH_DAYS: "1",
					MAX_ACTIVE_GENERATIONS_PER_USER: "10",
					STORAGE: "s3",
					S3_BUCKET: s3.bucket,
					S3_REGION: s3.region,
					S3_ENDPOINT: s3.endpoint,
					S3_FORCE_PATH_STYLE: "true",
					S3_ACCESS_KEY_ID: s3.accessKeyId,
					S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
				}),
			);
			await Promise.all(started.map((replica) => waitUntilHealthy(replica)));
			return started;
		};
		try {
			replicas = await start();
			await sql.connect();
			const [first] = replicas;
			if (!first) throw new Error("no replica");
			const session = await signUpOn(first.origin, "purged@example.com");
			const ids: string[] = [];
			for (let number = 0; number < 4; number++) {
				const response = await fetch(`${first.origin}/api/generations`, {
					method: "POST",
					headers: session,
					body: JSON.stringify({ prompt: `purged ${number}`, aspectRatio: "--ar 1:1" }),
				});
				expect(response.status).toBe(201);
				const created = CreateGenerationResponseSchema.parse(await response.json());
				if (!created.success) throw new Error(created.error.message);
				ids.push(created.id);
			}
			for (const id of ids) {
				await waitFor(`${id} to complete`, async () => {
					const poll = PollResponseSchema.parse(
						await (
							await fetch(`${first.origin}/api/generations/${id}/status`, { headers: session })
						).json(),
					);
					return poll.status === "completed" ? true : undefined;
				});
			}
			const deleted = await fetch(`${first.origin}/api/generations/bulk-delete`, {
				method: "POST",
				headers: session,
				body: JSON.stringify({ ids }),
			});
			expect(BulkDeleteResponseSchema.parse(await deleted.json())).toEqual({
				success: true,
				deleted: 4,
				permanent: false,
			});
			// In the Trash, everything is still stored.
			expect((await s3.listKeys("generations/")).length).toBeGreaterThan(0);

			// Two days later, as far as the Trash knows; both replicas start again at once and purge.
			await sql.query(
				"update generations set deleted_at = now() - interval '2 days' where id = any($1)",
				[ids],
			);
			await Promise.all(replicas.map((replica) => replica.kill()));
			replicas = await start();
			await waitFor("the purge", async () => {
				const left = await sql.query<{ count: string }>("select count(*) from generations");
				return Number(left.rows[0]?.count) === 0 ? true : undefined;
			});
			await waitFor("the purge's storage removal", async () =>
				(await s3.listKeys("generations/")).length === 0 ? true : undefined,
			);
			// Purged once: the two processes' counts add up to the four generations.
			await waitFor("both logs", async () =>
				replicas.reduce((sum, replica) => sum + purgedBy(replica), 0) === 4 ? true : undefined,
			);
			expect(replicas.reduce((sum, replica) => sum + purgedBy(replica), 0)).toBe(4);
		} finally {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await sql.end().catch(() => {});
			await s3.stop();
			await database.drop();
			await rm(dataDir, { recursive: true, force: true });
		}
	}, 240_000);
});
