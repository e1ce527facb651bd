import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "../testing/fakes/openai";
import { findFreePort } from "../testing/postgres-cluster";
import {
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

const SECRET = "enhance-processes-secret-at-least-32-characters";
const PER_HOUR = 5;

// PGlite keeps its data folder to one process (the data-folder lock), so two processes share
// a database only on PostgreSQL.
describe.skipIf(!inject("postgresUrl"))(
	"Enhance's hourly limit across two server processes",
	() => {
		let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
		let chat: FakeOpenAi;
		let dataDir: string;
		let replicas: ServerProcess[] = [];
		let baseUrl: string;

		beforeAll(async () => {
			[database, chat] = await Promise.all([createEmptyPostgresDatabase(), startFakeOpenAi()]);
			dataDir = await mkdtemp(path.join(".tmp", "enhance-replicas-"));
			const ports = [await findFreePort(), await findFreePort()];
			baseUrl = `http://127.0.0.1:${ports[0]}`;
			replicas = ports.map((port) =>
				spawnServer(inject("serverEntry"), {
					PORT: String(port),
					BASE_URL: baseUrl,
					BETTER_AUTH_SECRET: SECRET,
					AUTH_RATE_LIMIT_ENABLED: "false",
					DATABASE_URL: database.url,
					DATA_DIR: dataDir,
					ENHANCE_BASE_URL: chat.baseUrl,
					ENHANCE_API_KEY: FAKE_OPENAI_KEY,
					ENHANCE_MODEL: "gpt-4.1-mini",
					ENHANCE_PER_HOUR: String(PER_HOUR),
				}),
			);
			await Promise.all(replicas.map((replica) => waitUntilHealthy(replica)));
		}, 120_000);
		afterAll(async () => {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await database?.drop();
			await chat?.stop();
			if (dataDir) await rm(dataDir, { recursive: true, force: true });
		});

		function chatCalls(): number {
			return chat.requests().filter((request) => request.path === "/v1/chat/completions").length;
		}

		it("refuses one person's calls spread over both processes past the hourly count, all at once", async () => {
			const session = await signUpOn(replicas[0]?.origin ?? "", "writer@example.com", baseUrl);
			const before = chatCalls();
			const calls = Array.from({ length: PER_HOUR * 3 }, (_, index) =>
				fetch(`${replicas[index % 2]?.origin}/api/prompts/enhance`, {
					method: "POST",
					headers: session,
					body: JSON.stringify({ prompt: `a lighthouse at dusk ${index}` }),
				}),
			);
			const responses = await Promise.all(calls);
			const statuses = responses.map((response) => response.status).sort();
			expect(statuses).toEqual([...Array(PER_HOUR).fill(200), ...Array(PER_HOUR * 2).fill(429)]);
			for (const response of responses.filter((answer) => answer.status === 429)) {
				expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
				expect((await response.json()).error.code).toBe("RATE_LIMITED");
			}
			expect(chatCalls() - before).toBe(PER_HOUR);

			// Another person has a count of their own on either process.
			const other = await signUpOn(replicas[1]?.origin ?? "", "reader@example.com", baseUrl);
			const theirs = await fetch(`${replicas[1]?.origin}/api/prompts/enhance`, {
				method: "POST",
				headers: other,
				body: JSON.stringify({ prompt: "a quiet harbour" }),
			});
			expect(theirs.status).toBe(200);
		}, 60_000);
	},
);
