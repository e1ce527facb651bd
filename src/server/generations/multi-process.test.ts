import { describe, expect, inject, it } from "vitest";
import type { PollResponse } from "../../shared/generations";
import { openPostgresDatabase } from "../db/database";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer } from "../server";
import { createTestServer, createTestUser, TestClient } from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";

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
			provider: createLocalProvider({ delayMs: 400 }),
			isWorkerEnabled: false,
		});
		try {
			const { email, password } = await createTestUser(workerProcess);
			const client = new TestClient(pollProcess);
			await client.request("/api/auth/sign-in/email", {
				method: "POST",
				json: { email, password },
			});

			const created = (await (
				await client.request("/api/generations", {
					method: "POST",
					json: { prompt: "two processes", aspectRatio: "--ar 1:1" },
				})
			).json()) as { pollingUrl: string };

			let poll: PollResponse | undefined;
			const started = Date.now();
			while (Date.now() - started < 30_000) {
				// A long wait: only a NOTIFY from the other process can end it early.
				poll = (await (
					await client.request(`${created.pollingUrl}?wait=20000`)
				).json()) as PollResponse;
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
