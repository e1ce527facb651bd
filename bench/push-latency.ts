// Benchmark of Web Push latency: from a generation's completion (the row marked completed, by the
// database's clock) to the stand-in push service receiving its push, signed and encrypted, for
// one device. That span covers the job queued in the finishing transaction, the push slots woken
// when that commits, the endpoint's check, web-push's signing and encryption, and the request.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs push-latency
// Optional: RUNS=20 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { DEFAULT_PUSH_SETTINGS } from "../src/server/push/push-settings";
import { startPushService } from "../src/server/testing/push-service";
import {
	createBenchServer,
	forEachBenchDatabase,
	formatMs,
	printTable,
	type Summary,
	signUp,
	summarize,
} from "./bench-support";

const RUNS = Number(process.env.RUNS ?? 20);

async function measure(label: string, database: Database): Promise<[string, Summary]> {
	const service = await startPushService();
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		settings: {
			push: { ...DEFAULT_PUSH_SETTINGS, allowPrivateTargets: true },
			limits: { maxActivePerUser: 5, dailyLimitPerUser: 0 },
		},
		isWorkerEnabled: true,
	});
	try {
		const { headers } = await signUp(server, `push-bench-${Date.now()}@example.com`);
		const device = service.subscribe();
		const subscribed = await server.app.request("/api/account/push/subscriptions", {
			method: "POST",
			headers,
			body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }),
		});
		if (subscribed.status !== 201) throw new Error(`subscribing answered ${subscribed.status}`);

		const latencies: number[] = [];
		for (let run = 0; run < RUNS; run++) {
			const before = service.received().length;
			const response = await server.app.request("/api/generations", {
				method: "POST",
				headers,
				body: JSON.stringify({ prompt: `push bench ${run}`, aspectRatio: "--ar 1:1", count: 1 }),
			});
			const created = (await response.json()) as { id?: string };
			if (!created.id) throw new Error(`creating answered ${response.status}`);
			const deadline = Date.now() + 30_000;
			while (service.received().length === before) {
				if (Date.now() > deadline) throw new Error("no push within 30 s");
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
			const push = service.received()[before];
			const row = await database.db
				.selectFrom("generations")
				.select("completed_at")
				.where("id", "=", created.id)
				.executeTakeFirstOrThrow();
			if (!push || !row.completed_at) throw new Error("no completion recorded");
			latencies.push(push.receivedAt - row.completed_at.getTime());
		}
		return [label, summarize(latencies)];
	} finally {
		await server.close();
		await service.close();
	}
}

const results: [string, Summary][] = [];
await forEachBenchDatabase(
	async ({ source, open }) => {
		results.push(await measure(source, await open()));
	},
	{ labels: { pglite: "PGlite (embedded)" } },
);

console.log(`\nFrom a generation's completion to its push received, one device, ${RUNS} runs`);
printTable(
	["database", "median", "p95", "max"],
	results.map(([label, summary]) => [
		label,
		formatMs(summary.median),
		formatMs(summary.p95),
		formatMs(summary.max),
	]),
);
