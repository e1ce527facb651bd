import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GenerationSchema, PollResponseSchema } from "../../../shared/generations/generations";
import { createSilentLogger } from "../../logging/logger";
import { catalogueOfOne } from "../../models/model-catalogue";
import type { ImageProvider, ProviderJobState } from "../../providers/types";
import { PLAIN_CAPABILITIES } from "../../providers/types";
import { DEFAULT_RUN_SETTINGS } from "../../server";
import type { Storage } from "../../storage/storage";
import { availableDatabaseKinds } from "../../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../../testing/test-server";
import { claimGeneration, type Lease } from "./generation-lifecycle";
import { createProgressReporter } from "./progress-reporter";
import { type GenerationRunDeps, runNextGeneration } from "./run-generation";
import { generationFolder, runFolder } from "./store-images";

const png = (color: { r: number; g: number; b: number }) =>
	sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
		.png()
		.toBuffer()
		.then((data) => new Uint8Array(data));

/** An image service whose every check waits for the state the test hands it next. */
function createScriptedProvider() {
	const waiting: Array<(state: ProviderJobState) => void> = [];
	const provider: ImageProvider = {
		name: "scripted",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			return { jobId: "job-1" };
		},
		check: () => new Promise<ProviderJobState>((answer) => waiting.push(answer)),
	};
	return {
		provider,
		waitingChecks: () => waiting.length,
		/** Answers the check waiting now (the run asks again after a running state). */
		answer(state: ProviderJobState) {
			const next = waiting.shift();
			if (!next) throw new Error("no check is waiting");
			next(state);
		},
	};
}

async function waitUntil(check: () => Promise<boolean> | boolean) {
	const deadline = Date.now() + 10_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error("timed out");
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

function runDeps(server: TestServer, provider: ImageProvider): GenerationRunDeps {
	return {
		db: server.database.db,
		models: catalogueOfOne(provider, { id: "local" }),
		storage: server.storage,
		downloadImage: () => Promise.reject(new Error("every image comes as bytes")),
		logger: createSilentLogger(),
		settings: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 1, leaseMs: 60_000 },
	};
}

async function startQueuedGeneration(server: TestServer) {
	const { client } = await createTestUser(server);
	const response = await client.request("/api/generations", {
		method: "POST",
		json: { prompt: "a lighthouse at dusk", aspectRatio: "--ar 1:1" },
	});
	const { id } = (await response.json()) as { id: string };
	return { client, id };
}

async function poll(client: TestClient, id: string, waitMs = 0) {
	const response = await client.request(`/api/generations/${id}/status?wait=${waitMs}`);
	return PollResponseSchema.parse(await response.json());
}

async function readProgressRow(server: TestServer, id: string) {
	return server.database.db
		.selectFrom("generations")
		.select(["progress_stage", "progress_percent", "progress_step", "preview_key"])
		.where("id", "=", id)
		.executeTakeFirstOrThrow();
}

describe.each(availableDatabaseKinds())("a generation's progress (%s)", (kind) => {
	let server: TestServer;
	beforeAll(async () => {
		// No workers: each test runs its generation itself, with a provider it scripts.
		server = await createTestServer(kind, { isWorkerEnabled: false });
	});
	afterAll(async () => {
		await server?.close();
	});

	it("is queued with nothing known while waiting, and null once finished", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);

		const queued = await poll(client, id);
		expect(queued.status).toBe("queued");
		// The only one waiting: next in Atelier's queue.
		expect(queued.progress).toEqual({
			stage: "queued",
			position: 0,
			percent: null,
			step: null,
			steps: null,
			previewUrl: null,
		});

		const run = runNextGeneration(runDeps(server, scripted.provider));
		await waitUntil(() => scripted.waitingChecks() === 1);
		expect((await poll(client, id)).progress).toMatchObject({ stage: "starting", percent: null });

		scripted.answer({
			status: "completed",
			images: [{ kind: "bytes", data: await png({ r: 9, g: 9, b: 9 }), contentType: "image/png" }],
		});
		expect(await run).toBe("completed");
		expect((await poll(client, id)).progress).toBeNull();
		const generation = GenerationSchema.parse(
			await (await client.request(`/api/generations/${id}`)).json(),
		);
		expect(generation.progress).toBeNull();
	});

	it("wakes a waiting poll with the provider's news before the generation finishes", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));
		await waitUntil(() => scripted.waitingChecks() === 1);

		// Each poll waits longer than the test may last: only a write can answer it in time. A late
		// announcement of the run's start may wake one first; the client then asks again.
		const waiting = (async () => {
			for (let asked = 1; asked <= 5; asked++) {
				const answer = await poll(client, id, 25_000);
				if (answer.progress?.stage !== "starting") return answer;
			}
			throw new Error("no progress after five polls");
		})();
		// The poll has read the row and waits before the provider speaks.
		await waitUntil(() => server.countWaits(id) > 0);
		scripted.answer({ status: "running", progress: 40, step: 12, steps: 30 });
		const answer = await waiting;

		expect(answer.status).toBe("running");
		expect(answer.progress).toEqual({
			stage: "running",
			position: null,
			percent: 40,
			step: 12,
			steps: 30,
			previewUrl: null,
		});
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "failed", message: "The provider gave up." });
		expect(await run).toBe("failed");
	}, 20_000);

	it("answers a poll at once with what changed since the version it names, even between two polls", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));
		await waitUntil(() => scripted.waitingChecks() === 1);
		const seen = await poll(client, id);
		expect(seen.progress?.stage).toBe("starting");

		// The news lands while no poll is waiting: the next one, naming the answer it saw, gets it
		// at once rather than waiting out its 25 s for a change that has already happened.
		scripted.answer({ status: "running", progress: 40, step: 12, steps: 30 });
		await waitUntil(async () => (await readProgressRow(server, id)).progress_step === 12);
		const outcome = await Promise.race([
			client
				.request(`/api/generations/${id}/status?wait=25000&after=${seen.version}`)
				.then(async (response) => PollResponseSchema.parse(await response.json())),
			new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), 10_000)),
		]);
		expect(outcome).toMatchObject({ status: "running", progress: { step: 12, steps: 30 } });
		if (outcome === "still waiting") return;
		expect(outcome.version).not.toBe(seen.version);

		// Naming the answer as it is now, a poll waits for the next change.
		const waiting = client
			.request(`/api/generations/${id}/status?wait=25000&after=${outcome.version}`)
			.then(async (response) => PollResponseSchema.parse(await response.json()));
		let isAnswered = false;
		void waiting.then(() => {
			isAnswered = true;
		});
		await waitUntil(() => server.countWaits(id) > 0);
		expect(isAnswered).toBe(false);
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", progress: 60, step: 18, steps: 30 });
		expect((await waiting).progress).toMatchObject({ step: 18 });

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "failed", message: "The provider gave up." });
		expect(await run).toBe("failed");
	}, 30_000);

	it("never lowers the percent, and shows the provider's own queue as queued with its position", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", queuePosition: 3 });
		await waitUntil(async () => (await poll(client, id)).progress?.stage === "queued");
		expect((await poll(client, id)).progress).toMatchObject({ stage: "queued", position: 3 });

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", progress: 60, step: 1 });
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", progress: 30, step: 2 });
		await waitUntil(async () => (await readProgressRow(server, id)).progress_step === 2);

		expect((await poll(client, id)).progress).toMatchObject({
			stage: "running",
			position: null,
			percent: 60,
			step: 2,
		});
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "failed", message: "The provider gave up." });
		expect(await run).toBe("failed");
	});

	it("shows the stage the provider names: starting while it gets ready, running once at work, steps or not", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));
		const nothingKnown = {
			position: null,
			percent: null,
			step: null,
			steps: null,
			previewUrl: null,
		};

		// Replicate booting a machine: written as the provider's word, not left to the default.
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", stage: "starting" });
		await waitUntil(async () => (await readProgressRow(server, id)).progress_stage === "starting");
		expect((await poll(client, id)).progress).toEqual({ stage: "starting", ...nothingKnown });

		// fal's queue, then out of it before its logs show a step: no longer queued.
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", queuePosition: 2 });
		await waitUntil(async () => (await poll(client, id)).progress?.stage === "queued");
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", stage: "running" });
		await waitUntil(async () => (await poll(client, id)).progress?.stage === "running");
		expect((await poll(client, id)).progress).toEqual({ stage: "running", ...nothingKnown });

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "failed", message: "The provider gave up." });
		expect(await run).toBe("failed");
	});

	it("stores the preview for its owner only, and removes it when the final images come", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const { client: stranger } = await createTestUser(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({
			status: "running",
			step: 5,
			steps: 20,
			preview: { data: await png({ r: 200, g: 10, b: 10 }), contentType: "image/png" },
		});
		await waitUntil(async () => (await poll(client, id)).progress?.previewUrl != null);
		const previewUrl = (await poll(client, id)).progress?.previewUrl ?? "";

		const seen = await client.request(previewUrl);
		expect(seen.status).toBe(200);
		expect(seen.headers.get("content-type")).toBe("image/webp");
		expect((await stranger.request(previewUrl)).status).toBe(404);

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({
			status: "completed",
			images: [{ kind: "bytes", data: await png({ r: 9, g: 9, b: 9 }), contentType: "image/png" }],
		});
		expect(await run).toBe("completed");

		expect((await client.request(previewUrl)).status).toBe(404);
		const keys: string[] = [];
		for await (const page of server.storage.listKeys(generationFolder(id))) keys.push(...page);
		expect(keys.length).toBeGreaterThan(0);
		expect(keys.filter((key) => key.includes("preview"))).toEqual([]);
	});

	it("is saving while the images are copied into storage", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const stagesWhileStoring: Array<string | undefined> = [];
		// The server's storage, noting what a poll says as each image is written.
		const storage: Storage = {
			kind: server.storage.kind,
			async put(key, data, contentType) {
				stagesWhileStoring.push((await poll(client, id)).progress?.stage);
				await server.storage.put(key, data, contentType);
			},
			get: (key) => server.storage.get(key),
			delete: (keys) => server.storage.delete(keys),
			deletePrefix: (prefix) => server.storage.deletePrefix(prefix),
			listKeys: (prefix) => server.storage.listKeys(prefix),
		};
		const run = runNextGeneration({ ...runDeps(server, scripted.provider), storage });

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "running", progress: 80 });
		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({
			status: "completed",
			images: [{ kind: "bytes", data: await png({ r: 9, g: 9, b: 9 }), contentType: "image/png" }],
		});
		expect(await run).toBe("completed");

		expect(stagesWhileStoring.length).toBeGreaterThan(0);
		expect(new Set(stagesWhileStoring)).toEqual(new Set(["saving"]));
	});

	it("removes the preview when the generation fails", async () => {
		const scripted = createScriptedProvider();
		const { client, id } = await startQueuedGeneration(server);
		const run = runNextGeneration(runDeps(server, scripted.provider));

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({
			status: "running",
			preview: { data: await png({ r: 10, g: 200, b: 10 }), contentType: "image/png" },
		});
		await waitUntil(async () => (await poll(client, id)).progress?.previewUrl != null);
		const previewUrl = (await poll(client, id)).progress?.previewUrl ?? "";
		expect((await client.request(previewUrl)).status).toBe(200);

		await waitUntil(() => scripted.waitingChecks() === 1);
		scripted.answer({ status: "failed", message: "The provider gave up." });
		expect(await run).toBe("failed");

		expect((await client.request(previewUrl)).status).toBe(404);
		expect((await poll(client, id)).progress).toBeNull();
	});

	it("writes a chatty provider's news once at first, then merged, not once per report", async () => {
		const { id } = await startQueuedGeneration(server);
		const lease: Lease = { generationId: id, token: randomUUID() };
		// The only queued generation, so the next in the queue.
		expect((await claimGeneration(server.database.db, lease.token, 60_000))?.id).toBe(id);
		const announced: string[] = [];
		const stopListening = await server.database.listen("generation_changed", (payload) => {
			announced.push(payload);
		});
		// Everything announced so far (the claim) arrives before this marker: it is not counted.
		const sendMarker = async () => {
			const marker = `marker-${randomUUID()}`;
			await sql`select pg_notify('generation_changed', ${marker})`.execute(server.database.db);
			await waitUntil(() => announced.includes(marker));
		};
		try {
			await sendMarker();
			announced.length = 0;
			const reporter = createProgressReporter({
				db: server.database.db,
				storage: server.storage,
				logger: createSilentLogger(),
				lease,
				folder: runFolder(id, lease.token),
				// No interval ends while the test runs: what is not written at once waits for flush.
				intervalMs: 60 * 60 * 1000,
				onClaimLost: () => {},
			});
			// News arrives the way a socket brings it: one report a turn of the event loop.
			for (let step = 1; step <= 50; step++) {
				reporter.report({ step, steps: 50, progress: step * 2 });
				await new Promise((resolve) => setTimeout(resolve, 1));
			}
			await reporter.flush();
			await reporter.close();
			// Once a marker sent after the writes arrives, every announcement before it has.
			await sendMarker();

			const writes = announced.filter((payload) => payload === id).length;
			expect(writes).toBeGreaterThanOrEqual(1);
			expect(writes).toBeLessThanOrEqual(2);
			expect(await readProgressRow(server, id)).toMatchObject({
				progress_percent: 100,
				progress_step: 50,
			});
		} finally {
			await stopListening();
		}
	});

	it("writes news that changes nothing only once: a polled provider saying the same again", async () => {
		const { id } = await startQueuedGeneration(server);
		const lease: Lease = { generationId: id, token: randomUUID() };
		expect((await claimGeneration(server.database.db, lease.token, 60_000))?.id).toBe(id);
		const announced: string[] = [];
		const stopListening = await server.database.listen("generation_changed", (payload) => {
			announced.push(payload);
		});
		const sendMarker = async () => {
			const marker = `marker-${randomUUID()}`;
			await sql`select pg_notify('generation_changed', ${marker})`.execute(server.database.db);
			await waitUntil(() => announced.includes(marker));
		};
		try {
			await sendMarker();
			announced.length = 0;
			const reporter = createProgressReporter({
				db: server.database.db,
				storage: server.storage,
				logger: createSilentLogger(),
				lease,
				folder: runFolder(id, lease.token),
				// Every write that is due happens at once: only what the reporter skips is not written.
				intervalMs: 0,
				onClaimLost: () => {},
			});
			// The first news is written even when it says what the reporter starts from.
			reporter.report({ stage: "starting" });
			await reporter.flush();
			for (let check = 1; check <= 5; check++) {
				reporter.report({ stage: "starting" });
				await reporter.flush();
			}
			for (let check = 1; check <= 5; check++) {
				reporter.report({ stage: "running", progress: 50, step: 2, steps: 4 });
				await reporter.flush();
			}
			await reporter.close();
			await sendMarker();

			expect(announced.filter((payload) => payload === id)).toHaveLength(2);
			expect(await readProgressRow(server, id)).toMatchObject({
				progress_stage: "running",
				progress_percent: 50,
				progress_step: 2,
			});
		} finally {
			await stopListening();
		}
	});
});
