import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openPostgresDatabase } from "../db/database";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer, type Server } from "../server";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";

/**
 * A second server process on the same PostgreSQL database, with its own connections. PGlite has one
 * process by design, so there the same server stands in for both.
 */
async function openSecondProcess(
	first: TestServer,
): Promise<{ server: Server; close(): Promise<void> }> {
	const connectionString = first.database.connectionString;
	if (first.database.kind === "pglite" || !connectionString) {
		return { server: first, close: async () => {} };
	}
	const database = openPostgresDatabase(connectionString, createSilentLogger(), { max: 3 });
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		settings: createTestSettings(),
		storage: first.storage,
		models: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	return {
		server,
		async close() {
			await server.stop();
			await database.close();
		},
	};
}

async function jobsOf(server: TestServer, generationId: string) {
	const result = await sql<{ state: string }>`
		select state from pgboss.job where name = 'generation' and data->>'generationId' = ${generationId}`.execute(
		server.database.db,
	);
	return result.rows.map((row) => row.state);
}

describe.each(availableDatabaseKinds())("the generation queue (%s)", (kind) => {
	it("holds one job per generation, however many sweeps find its run dead at the same moment", async () => {
		// No workers anywhere: the test watches the queue, nothing takes jobs from it.
		const first = await createTestServer(kind, { isWorkerEnabled: false });
		const second = await openSecondProcess(first);
		try {
			const { client } = await createTestUser(first);
			const response = await client.request("/api/generations", {
				method: "POST",
				json: { prompt: "one job only", aspectRatio: "--ar 1:1" },
			});
			const { id } = (await response.json()) as { id: string };
			expect(await jobsOf(first, id)).toEqual(["created"]);

			// A worker took the job and died while running it: the job stays active, the lease runs out.
			await sql`update pgboss.job set state = 'active', started_on = now() where data->>'generationId' = ${id}`.execute(
				first.database.db,
			);
			await sql`update generations set status = 'running', lease_owner = 'dead-run', lease_until = now() - interval '1 second' where id = ${id}`.execute(
				first.database.db,
			);

			await Promise.all([
				first.queue.sweep(),
				second.server.queue.sweep(),
				first.queue.sweep(),
				second.server.queue.sweep(),
			]);
			// The dead run's job was replaced by one waiting job, not joined by several.
			expect(await jobsOf(first, id)).toEqual(["created"]);

			// Sweeping again while that job waits adds nothing.
			await Promise.all([first.queue.sweep(), second.server.queue.sweep()]);
			expect(await jobsOf(first, id)).toEqual(["created"]);
		} finally {
			await second.close();
			await first.close();
		}
	});

	it("never queues a second job for a generation that waits in a long queue", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const { client } = await createTestUser(server);
			const response = await client.request("/api/generations", {
				method: "POST",
				json: { prompt: "a long backlog", aspectRatio: "--ar 1:1" },
			});
			const { id } = (await response.json()) as { id: string };
			// Queued for a minute behind other people's work.
			await sql`update generations set created_at = now() - interval '1 minute' where id = ${id}`.execute(
				server.database.db,
			);
			await Promise.all([server.queue.sweep(), server.queue.sweep()]);
			expect(await jobsOf(server, id)).toEqual(["created"]);
		} finally {
			await server.close();
		}
	});
});
