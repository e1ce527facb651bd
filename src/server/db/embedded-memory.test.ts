import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findFreePort } from "../testing/postgres-cluster";
import { type ServerProcess, spawnServer, waitUntilHealthy } from "../testing/server-process";

/** The process's resident memory in MB, as the operating system counts it. */
function readRssMb(server: ServerProcess): number {
	const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

/** The bundled server on a new embedded database, its RSS read once it has been idle a while. */
async function measureIdleServer(entry: string, env: Record<string, string>) {
	await mkdir(".tmp", { recursive: true });
	const dataDir = await mkdtemp(path.join(".tmp", "embedded-memory-"));
	const port = String(await findFreePort());
	const server = spawnServer(entry, {
		PORT: port,
		BASE_URL: `http://127.0.0.1:${port}`,
		DATA_DIR: dataDir,
		IMAGE_PROVIDER: "local",
		MALLOC_ARENA_MAX: "2",
		...env,
	});
	try {
		await waitUntilHealthy(server, 180_000);
		await new Promise((resolve) => setTimeout(resolve, 5_000));
		return readRssMb(server);
	} finally {
		await server.kill("SIGKILL");
		await rm(dataDir, { recursive: true, force: true });
	}
}

// docs/decisions/042-a-crowd-in-400-mb.md: an idle embedded server was 300 to 330 MB, 60 to 90 MB
// of it V8's optimizing compiler's work on PGlite's PostgreSQL.
describe.skipIf(process.platform !== "linux")("the embedded server's memory", () => {
	beforeAll(async () => {}, 120_000);
	afterAll(async () => {});

	it("stays under 280 MB idle, 40 MB or more below the same server with EMBEDDED_DATABASE_OPTIMIZE", async () => {
		const [baseline, optimized] = await Promise.all([
			measureIdleServer(inject("serverEntry"), {}),
			measureIdleServer(inject("serverEntry"), { EMBEDDED_DATABASE_OPTIMIZE: "true" }),
		]);
		expect(baseline).toBeLessThan(280);
		expect(optimized - baseline).toBeGreaterThan(40);
	}, 400_000);
});
