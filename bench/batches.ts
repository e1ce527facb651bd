// Benchmark of a batch's start: POST /api/generations with `variations: "all"` on a prompt of
// 27 combinations ({a|b|c} three times), answered once all 27 generations and their jobs are in
// the database (one transaction), beside 27 generations started one request at a time.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs batches
// Optional: RUNS=10 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	createBenchServer,
	formatMs,
	openBenchPglite,
	printTable,
	type Summary,
	signUp,
	startBenchPostgres,
	summarize,
} from "./bench-support";

const RUNS = Number(process.env.RUNS ?? 10);
const COMBINATIONS = 27;
const PROMPT = "a {red|green|blue} {car|boat|kite} at {dawn|noon|dusk}";

async function measure(label: string, database: Database): Promise<[string, Summary, Summary]> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		settings: {
			limits: {
				maxActivePerUser: 100_000,
				dailyLimitPerUser: 0,
				maxBatchGenerations: COMBINATIONS,
			},
		},
		// No worker: the time measured is the start alone, not the renders it queues.
		isWorkerEnabled: false,
	});
	try {
		const { headers } = await signUp(server, `batches-bench-${Date.now()}@example.com`);
		const start = async (body: Record<string, unknown>) => {
			const response = await server.app.request("/api/generations", {
				method: "POST",
				headers,
				body: JSON.stringify({ aspectRatio: "--ar 1:1", count: 1, ...body }),
			});
			if (response.status !== 201) throw new Error(`starting answered ${response.status}`);
			return (await response.json()) as { generations?: unknown[] };
		};
		const batchSamples: number[] = [];
		const singleSamples: number[] = [];
		for (let run = 0; run < RUNS; run++) {
			let started = performance.now();
			const batch = await start({ prompt: PROMPT, variations: "all" });
			batchSamples.push(performance.now() - started);
			if (batch.generations?.length !== COMBINATIONS) throw new Error("the batch was short");
			started = performance.now();
			for (let index = 0; index < COMBINATIONS; index++) {
				await start({ prompt: `a single start number ${index}` });
			}
			singleSamples.push(performance.now() - started);
		}
		return [label, summarize(batchSamples), summarize(singleSamples)];
	} finally {
		await server.close();
	}
}

const results: [string, Summary, Summary][] = [];
results.push(await measure("PGlite (embedded)", await openBenchPglite()));
const postgres = await startBenchPostgres();
if (postgres) {
	try {
		results.push(await measure(postgres.source, await postgres.openDatabase()));
	} finally {
		await postgres.stop();
	}
}

console.log(
	`\nStarting ${COMBINATIONS} generations: one batch of ${COMBINATIONS} combinations, and ${COMBINATIONS} requests one after another; ${RUNS} runs each, through app.request`,
);
printTable(
	["database", "batch: median", "p95", "one by one: median", "p95"],
	results.map(([label, batch, single]) => [
		label,
		formatMs(batch.median),
		formatMs(batch.p95),
		formatMs(single.median),
		formatMs(single.p95),
	]),
);
