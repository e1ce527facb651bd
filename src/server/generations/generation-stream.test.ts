import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PollResponse } from "../../shared/generations/generations";
import { createLocalProvider } from "../providers/local/local-provider";
import { createToken } from "../testing/api-token-kit";
import {
	isGenerationEvent,
	readEventStream,
	type StreamEvent,
} from "../testing/event-stream-reader";
import { ExactPollResponseSchema, requestGeneration } from "../testing/generation-kit";
import { type ServerProcess, startServer } from "../testing/server-process";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";
import { notifyGenerationChanged } from "./generation-events";

const STREAM_TIMES = { accessCheckMs: 300, heartbeatMs: 1_000 };

async function openStream(client: TestClient) {
	const response = await client.request("/api/generations/events");
	expect(response.status).toBe(200);
	expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
	return readEventStream(response);
}

const isActiveList = (matches: (ids: string[]) => boolean) => (event: StreamEvent) =>
	event.kind === "event" && event.event === "active" && matches(JSON.parse(event.data).ids);

describe.each(availableDatabaseKinds())("the generation event stream on %s", (kind) => {
	describe("without a worker", () => {
		let server: TestServer;
		beforeAll(async () => {
			server = await createTestServer(kind, {
				isWorkerEnabled: false,
				limits: { maxActivePerUser: 10, dailyLimitPerUser: 0, streamTimes: STREAM_TIMES },
			});
		});
		afterAll(async () => {
			await server.close();
		});

		it("answers 401 signed out", async () => {
			const response = await server.app.request("/api/generations/events");
			expect(response.status).toBe(401);
			expect((await response.json()).error.code).toBe("AUTH_ERROR");
		});

		it("sends a retry, the active list, each queued generation's answer and its place as the queue moves; never another person's", async () => {
			const { client } = await createTestUser(server);
			const other = await createTestUser(server);
			const first = await requestGeneration(client, `first ${kind}`, "--ar 1:1");
			const second = await requestGeneration(client, `second ${kind}`, "--ar 1:1");
			const third = await requestGeneration(client, `third ${kind}`, "--ar 1:1");
			const stream = await openStream(client);
			const othersStream = await openStream(other.client);
			try {
				expect(stream.received[0]).toMatchObject({ kind: "retry" });
				await stream.waitFor(
					isActiveList((ids) => ids.join() === [first.id, second.id, third.id].join()),
				);
				const queued = await stream.waitFor(isGenerationEvent(third.id));
				// Exactly the status route's answer.
				const answer = ExactPollResponseSchema.parse(
					JSON.parse(queued.kind === "event" ? queued.data : ""),
				);
				const poll = await (await client.request(`${third.pollingUrl}?wait=0`)).json();
				expect(answer).toEqual(poll);
				expect(answer.progress?.position).toBe(2);

				// Someone else's generation moves the queue without appearing on this stream.
				const othersOwn = await requestGeneration(other.client, `other ${kind}`, "--ar 1:1");
				await othersStream.waitFor(isGenerationEvent(othersOwn.id), 1_000);

				// Its place before the deletion (another person's generation may have come before it).
				await new Promise((resolve) => setTimeout(resolve, 500));
				const answers = stream.answersFor(third.id) as PollResponse[];
				const placeBefore = answers.at(-1)?.progress?.position ?? -1;
				const fromIndex = stream.received.length;
				const deleted = await client.request(`/api/generations/${first.id}`, { method: "DELETE" });
				expect(deleted.status).toBe(200);
				await stream.waitFor(
					isGenerationEvent(third.id, (next) => next.progress?.position === placeBefore - 1),
					5_000,
					fromIndex,
				);
				await stream.waitFor(isActiveList((ids) => ids.join() === [second.id, third.id].join()));

				const seen = stream.received.flatMap((event) =>
					event.kind === "event" ? [event.id ?? "", event.data] : [],
				);
				expect(seen.join(" ")).not.toContain(othersOwn.id);
				expect(othersStream.answersFor(third.id)).toEqual([]);
			} finally {
				await stream.close();
				await othersStream.close();
			}
		});

		it("holds a burst of progress to a few events a second, the first at once", async () => {
			const { client } = await createTestUser(server);
			const generation = await requestGeneration(client, `burst ${kind}`, "--ar 1:1");
			const { db } = server.database;
			await db
				.updateTable("generations")
				.set({ status: "running", progress_stage: "running", progress_steps: 100 })
				.where("id", "=", generation.id)
				.execute();
			const stream = await openStream(client);
			try {
				await stream.waitFor(
					isGenerationEvent(generation.id, (answer) => answer.status === "running"),
				);
				const before = stream.answersFor(generation.id).length;
				const startedAt = Date.now();
				// Forty changes within about a second, each announced as a run's progress is.
				for (let step = 1; step <= 40; step++) {
					await db
						.updateTable("generations")
						.set({ progress_step: step })
						.where("id", "=", generation.id)
						.execute();
					await notifyGenerationChanged(db, generation.id);
					await new Promise((resolve) => setTimeout(resolve, 25));
				}
				const last = await stream.waitFor(
					isGenerationEvent(generation.id, (answer) =>
						JSON.stringify(answer).includes('"step":40'),
					),
				);
				const seconds = (last.at - startedAt) / 1_000;
				const sent = stream.answersFor(generation.id).length - before;
				// About four a second at most, and never one a change.
				expect(sent).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 2);
				expect(sent).toBeLessThan(20);
			} finally {
				await stream.close();
			}
		});

		it("ends when its session is signed out", async () => {
			const { client } = await createTestUser(server);
			const stream = await openStream(client);
			await stream.waitFor(isActiveList(() => true));
			const signedOut = await client.request("/api/auth/sign-out", { method: "POST", json: {} });
			expect(signedOut.status).toBe(200);
			const endedAt = Date.now();
			await stream.ended;
			// Found at the next check of the session.
			expect(Date.now() - endedAt).toBeLessThan(3_000);
		});

		it("ends after its lifetime and says when to come back", async () => {
			const brief = await createTestServer(kind, {
				isWorkerEnabled: false,
				limits: {
					maxActivePerUser: 10,
					dailyLimitPerUser: 0,
					streamTimes: { lifetimeMs: 500, heartbeatMs: 200 },
				},
			});
			try {
				const { client } = await createTestUser(brief);
				const stream = await openStream(client);
				await stream.ended;
				expect(stream.received.some((event) => event.kind === "comment")).toBe(true);
				expect(stream.received[0]).toMatchObject({ kind: "retry", ms: 2_000 });
			} finally {
				await brief.close();
			}
		});
	});

	describe("with a worker", () => {
		let server: TestServer;
		beforeAll(async () => {
			server = await createTestServer(kind, {
				provider: createLocalProvider({ delayMs: 300 }),
				limits: { maxActivePerUser: 10, dailyLimitPerUser: 0, streamTimes: STREAM_TIMES },
			});
		});
		afterAll(async () => {
			await server.close();
		});

		it("brings a generation started through the API within a second, and its completion", {
			timeout: 60_000,
		}, async () => {
			const person = await createTestUser(server);
			const { token } = await createToken(person, ["generate", "read"]);
			const stream = await openStream(person.client);
			try {
				await stream.waitFor(isActiveList((ids) => ids.length === 0));
				const response = await server.app.request("/api/generations", {
					method: "POST",
					headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
					body: JSON.stringify({ prompt: `through the API ${kind}`, aspectRatio: "--ar 1:1" }),
				});
				expect(response.status).toBe(201);
				const startedAt = Date.now();
				const { id } = (await response.json()) as { id: string };
				const first = await stream.waitFor(isGenerationEvent(id), 1_000);
				expect(first.at - startedAt).toBeLessThan(1_000);
				const done = await stream.waitFor(
					isGenerationEvent(id, (answer) => answer.status === "completed"),
					30_000,
				);
				const final = ExactPollResponseSchema.parse(
					JSON.parse(done.kind === "event" ? done.data : ""),
				);
				expect(final.results).toHaveLength(4);
				// It left the list of those still queued or running.
				const lists = stream.received.filter(isActiveList(() => true));
				expect(lists.at(-1)).toMatchObject({ data: '{"ids":[]}' });
			} finally {
				await stream.close();
			}
		});

		it("lets a token with the read scope follow, and refuses one without", async () => {
			const person = await createTestUser(server);
			const reader = await createToken(person, ["read"]);
			const deleter = await createToken(person, ["delete"], 30, "deleter");
			const refused = await server.app.request("/api/generations/events", {
				headers: { authorization: `Bearer ${deleter.token}` },
			});
			expect(refused.status).toBe(403);
			const response = await server.app.request("/api/generations/events", {
				headers: { authorization: `Bearer ${reader.token}` },
			});
			expect(response.status).toBe(200);
			const stream = readEventStream(response);
			try {
				await stream.waitFor(isActiveList(() => true));
				const revoked = await person.client.request(`/api/account/tokens/${reader.id}`, {
					method: "DELETE",
				});
				expect(revoked.status).toBe(200);
				await stream.ended;
			} finally {
				await stream.close();
			}
		});
	});
});

// Two processes cannot share the embedded database (its data folder is locked to one), so the run
// on another process is PostgreSQL's alone.
describe.skipIf(!inject("postgresUrl"))("the generation event stream across processes", () => {
	beforeAll(async () => {});
	afterAll(async () => {});

	it("brings a run of a spawned second process to a stream held by this one", async () => {
		const streaming = await createTestServer("postgres", {
			isWorkerEnabled: false,
			limits: { maxActivePerUser: 10, dailyLimitPerUser: 0, streamTimes: STREAM_TIMES },
		});
		await mkdir(".tmp", { recursive: true });
		const dataDir = await mkdtemp(path.join(".tmp", "stream-worker-"));
		let worker: ServerProcess | undefined;
		try {
			worker = await startServer(inject("serverEntry"), {
				DATABASE_URL: streaming.database.connectionString ?? "",
				DATA_DIR: dataDir,
				BETTER_AUTH_SECRET: "event-stream-secret-at-least-32-characters",
				LOCAL_ENGINE_DELAY_MS: "300",
				LOG_LEVEL: "info",
			});
			const { client } = await createTestUser(streaming);
			const stream = await openStream(client);
			try {
				const generation = await requestGeneration(client, "run elsewhere", "--ar 1:1");
				await stream.waitFor(
					isGenerationEvent(generation.id, (answer) => answer.status === "running"),
					30_000,
				);
				await stream.waitFor(
					isGenerationEvent(generation.id, (answer) => answer.status === "completed"),
					30_000,
				);
				const ran = worker
					.logs()
					.some(
						(line) => line.message === "running generation" && line.generationId === generation.id,
					);
				expect(ran).toBe(true);
			} finally {
				await stream.close();
			}
		} finally {
			await worker?.kill();
			await streaming.close();
			await rm(dataDir, { recursive: true, force: true });
		}
	});
});
