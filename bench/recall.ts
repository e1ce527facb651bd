// Benchmark of recall: GET /api/prompts/recent for a person who has used 100 distinct prompts (the
// most kept), whole and searched, as the prompt box's first Alt+Up and the Recent menu ask it.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs recall
// Optional: RUNS=50 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	createBenchServer,
	forEachBenchDatabase,
	formatMs,
	printTable,
	type Summary,
	signUp,
	summarize,
} from "./bench-support";

const RUNS = Number(process.env.RUNS ?? 50);
const PROMPTS = 100;

async function measure(label: string, database: Database): Promise<[string, Summary, Summary]> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		settings: { limits: { maxActivePerUser: 1_000, dailyLimitPerUser: 0 } },
		isWorkerEnabled: false,
	});
	try {
		const { headers } = await signUp(server, `recall-bench-${Date.now()}@example.com`);
		for (let index = 0; index < PROMPTS; index++) {
			const response = await server.app.request("/api/generations", {
				method: "POST",
				headers,
				body: JSON.stringify({
					prompt: `A recall bench prompt number ${index}`,
					aspectRatio: "--ar 1:1",
					count: 1,
				}),
			});
			if (response.status !== 201) throw new Error(`creating answered ${response.status}`);
		}
		const time = async (path: string, expected: number) => {
			const samples: number[] = [];
			for (let run = 0; run < RUNS; run++) {
				const started = performance.now();
				const response = await server.app.request(path, { headers });
				const body = (await response.json()) as { items: unknown[] };
				samples.push(performance.now() - started);
				if (body.items.length !== expected) throw new Error(`${path} listed ${body.items.length}`);
			}
			return summarize(samples);
		};
		return [
			label,
			await time("/api/prompts/recent", PROMPTS),
			await time("/api/prompts/recent?q=number%201", 11),
		];
	} finally {
		await server.close();
	}
}

const results: [string, Summary, Summary][] = [];
await forEachBenchDatabase(
	async ({ source, open }) => {
		results.push(await measure(source, await open()));
	},
	{ labels: { pglite: "PGlite (embedded)" } },
);

console.log(
	`\nGET /api/prompts/recent at ${PROMPTS} prompts, ${RUNS} runs each, through app.request`,
);
printTable(
	["database", "all: median", "p95", "searched: median", "p95"],
	results.map(([label, all, searched]) => [
		label,
		formatMs(all.median),
		formatMs(all.p95),
		formatMs(searched.median),
		formatMs(searched.p95),
	]),
);
