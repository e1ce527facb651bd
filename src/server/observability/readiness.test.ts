import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sweepStrayObjects } from "../generations/run/sweep-stray-objects";
import { createLocalStorage } from "../storage/local-storage";
import type { Storage } from "../storage/storage";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, type TestServer } from "../testing/test-server";
import { READINESS_PROBE_FOLDER, ReadinessSchema, STORAGE_PROBE_INTERVAL_MS } from "./readiness";

async function readReady(server: Pick<TestServer, "app">) {
	const response = await server.app.request("/api/ready");
	return { status: response.status, body: ReadinessSchema.parse(await response.json()) };
}

async function listKeys(storage: Storage, folder: string): Promise<string[]> {
	const keys: string[] = [];
	for await (const page of storage.listKeys(folder)) keys.push(...page);
	return keys;
}

/** A store that reads and lists but refuses every write, as a full disk or a read-only bucket does. */
function refuseWrites(storage: Storage): Storage {
	return {
		...storage,
		async put() {
			throw new Error("EROFS: read-only file system");
		},
	};
}

/** A store that counts the writes made to it, for how often the probe writes. */
function countWrites(storage: Storage): { storage: Storage; writes: () => number } {
	let writes = 0;
	return {
		storage: {
			...storage,
			async put(...args) {
				writes += 1;
				return storage.put(...args);
			},
		},
		writes: () => writes,
	};
}

describe.each(availableDatabaseKinds())("GET /api/ready on %s", (kind) => {
	const servers: TestServer[] = [];
	const start = async (options: Parameters<typeof createTestServer>[1] = {}) => {
		const server = await createTestServer(kind, { isWorkerEnabled: false, ...options });
		servers.push(server);
		return server;
	};
	afterAll(async () => {
		await Promise.all(servers.map((server) => server.close().catch(() => {})));
	});

	it("answers 200 when the database answers and storage takes a write, leaving nothing behind", async () => {
		const server = await start();

		expect(await readReady(server)).toEqual({ status: 200, body: { ready: true, problems: [] } });
		expect(await listKeys(server.storage, READINESS_PROBE_FOLDER)).toEqual([]);
	});

	it("writes to storage at most once within its interval, however many probes arrive", async () => {
		const folder = await mkdtemp(path.join(tmpdir(), "atelier-readiness-"));
		const counted = countWrites(createLocalStorage(folder));
		const server = await start({ storage: counted.storage });

		const startedAt = Date.now();
		for (let probe = 0; probe < 40; probe++) expect((await readReady(server)).status).toBe(200);
		const together = await Promise.all(Array.from({ length: 40 }, () => readReady(server)));
		const windows = Math.floor((Date.now() - startedAt) / STORAGE_PROBE_INTERVAL_MS) + 1;

		expect(together.every((answer) => answer.status === 200)).toBe(true);
		// One write per window begun (one, unless this machine took over 5 s for 80 probes).
		expect(counted.writes()).toBeGreaterThanOrEqual(1);
		expect(counted.writes()).toBeLessThanOrEqual(windows);
		await rm(folder, { recursive: true, force: true });
	});

	it("keeps its probe objects out of the stray-object sweep's way", async () => {
		const server = await start();
		// What a process killed between the probe's write and its delete leaves.
		const leftover = `${READINESS_PROBE_FOLDER}probe-left-by-a-crash.txt`;
		await server.storage.put(leftover, new TextEncoder().encode("ready\n"), "text/plain");

		expect((await readReady(server)).status).toBe(200);
		expect(await sweepStrayObjects({ db: server.database.db, storage: server.storage })).toBe(0);
		expect(await listKeys(server.storage, READINESS_PROBE_FOLDER)).toEqual([leftover]);
	});

	it("answers 503 naming storage when storage cannot be written, while the process stays live", async () => {
		const server = await start({ storage: refuseWrites(createLocalStorage(".tmp/unused")) });

		expect(await readReady(server)).toEqual({
			status: 503,
			body: { ready: false, problems: ["storage"] },
		});
		expect((await server.app.request("/api/health")).status).toBe(200);
	});

	it("answers 503 naming the database when it cannot be reached", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		await server.stop();
		await server.database.close();
		try {
			expect(await readReady(server)).toEqual({
				status: 503,
				body: { ready: false, problems: ["database"] },
			});
			expect((await server.app.request("/api/health")).status).toBe(503);
		} finally {
			await rm(server.storageDir, { recursive: true, force: true });
		}
	});

	it("answers 503 shutting-down once the process drains, while liveness stays 200", async () => {
		const server = await start();
		expect((await readReady(server)).status).toBe(200);

		server.markShuttingDown();

		expect(await readReady(server)).toEqual({
			status: 503,
			body: { ready: false, problems: ["shutting-down"] },
		});
		expect((await server.app.request("/api/health")).status).toBe(200);
	});
});
