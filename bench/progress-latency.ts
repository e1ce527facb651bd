// Benchmark of progress latency: how long after the image provider reports a change (the ComfyUI
// fake sending a sampler step on its WebSocket) does an open long poll (GET {pollingUrl}?wait=5000)
// answer with it? That span covers the WebSocket message, the run's throttled progress write,
// NOTIFY, and the poll's wake-up and read. Target: under 250 ms (median and p95).
// Two cadences: a step after a quiet spell (the throttle writes the first news at once), and a
// chatty sampler sending a step every 50 ms (news within the interval waits for its end).
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs progress-latency
// Optional: GENERATIONS=3 STEPS=10 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { PROGRESS_WRITE_INTERVAL_MS } from "../src/server/generations/progress-reporter";
import { createComfyUiProvider } from "../src/server/providers/comfyui/comfyui-provider";
import { type FakeComfyUi, startFakeComfyUi } from "../src/server/testing/fakes/comfyui";
import {
	type BenchServer,
	createBenchServer,
	createBenchSettings,
	formatMs,
	openBenchPglite,
	printTable,
	type Summary,
	signUp,
	startBenchPostgres,
	summarize,
} from "./bench-support";

const GENERATIONS = Number(process.env.GENERATIONS ?? 3);
const STEPS = Number(process.env.STEPS ?? 10);
const POLL_WAIT_MS = 5_000;
const SETTLE_MS = 30;
const CHATTY_GAP_MS = 50;
const TARGET_MS = 250;
const ORIGIN = "http://localhost:3000";
const FOREVER_MS = 60 * 60 * 1000;

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

type Poll = { status: string; progress: { step: number | null } | null };

async function poll(server: BenchServer, cookie: string, url: string, waitMs: number) {
	const response = await server.app.request(`${url}?wait=${waitMs}`, { headers: { cookie } });
	if (response.status !== 200) throw new Error(`poll answered ${response.status}`);
	return (await response.json()) as Poll;
}

/** Long-polls until the answer shows `step`; when it came. */
async function pollUntilStep(server: BenchServer, cookie: string, url: string, step: number) {
	for (let attempt = 0; attempt < 20; attempt++) {
		const answer = await poll(server, cookie, url, POLL_WAIT_MS);
		if ((answer.progress?.step ?? 0) >= step) return performance.now();
		if (answer.status === "completed" || answer.status === "failed") break;
	}
	throw new Error(`step ${step} never reached the poll`);
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
	const deadline = Date.now() + 15_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(5);
	}
}

type Measurement = { quiet: number[]; chatty: number[] };

async function benchDatabase(label: string, database: Database): Promise<Measurement> {
	const fake: FakeComfyUi = await startFakeComfyUi({
		behaviour: { pendingMs: 0, runningMs: FOREVER_MS, steps: 0 },
	});
	const server = await createBenchServer({
		database,
		provider: createComfyUiProvider({ url: fake.origin }),
		settings: createBenchSettings({ concurrency: 2 }),
		isWorkerEnabled: true,
	});
	const measurement: Measurement = { quiet: [], chatty: [] };
	try {
		const { cookie } = await signUp(server, "progress-person@example.com");
		for (let run = 0; run < GENERATIONS; run++) {
			fake.setBehaviour({ runningMs: FOREVER_MS });
			const created = await server.app.request("/api/generations", {
				method: "POST",
				headers: { "content-type": "application/json", origin: ORIGIN, cookie },
				body: JSON.stringify({ prompt: `progress run ${run}`, aspectRatio: "--ar 1:1", count: 1 }),
			});
			if (created.status !== 201) throw new Error(`create answered ${created.status}`);
			const { pollingUrl } = (await created.json()) as { pollingUrl: string };
			await waitFor(() => fake.promptIds().length === run + 1, "the prompt to be queued");
			await waitFor(() => fake.socketCount() > 0, "the WebSocket to connect");
			const promptId = fake.promptIds()[run] ?? "";
			let step = 0;
			for (const [cadence, samples] of [
				["quiet", measurement.quiet],
				["chatty", measurement.chatty],
			] as const) {
				for (let index = 0; index < STEPS; index++) {
					step += 1;
					// Quiet: the last write is older than the interval, so this news is written at once.
					await sleep(cadence === "quiet" ? PROGRESS_WRITE_INTERVAL_MS + SETTLE_MS : CHATTY_GAP_MS);
					const answered = pollUntilStep(server, cookie, pollingUrl, step);
					// Lets the poll read the row and start waiting before the provider speaks.
					await sleep(SETTLE_MS);
					const sentAt = performance.now();
					await fake.sendProgress(promptId, step, STEPS * 2);
					samples.push((await answered) - sentAt);
				}
			}
			fake.setBehaviour({ runningMs: 0 });
			await waitFor(
				async () => (await poll(server, cookie, pollingUrl, POLL_WAIT_MS)).status === "completed",
				"the generation to complete",
			);
		}
		const quiet = summarize(measurement.quiet);
		console.log(
			`[${label}] ${measurement.quiet.length} steps after a quiet spell: median ${formatMs(quiet.median)}, p95 ${formatMs(quiet.p95)}`,
		);
		return measurement;
	} finally {
		await server.close();
		await fake.stop();
	}
}

async function main(): Promise<void> {
	console.log(
		`Progress latency benchmark: the ComfyUI fake sends a sampler step on its WebSocket -> an open GET {pollingUrl}?wait=${POLL_WAIT_MS} answers with it. ` +
			`${GENERATIONS} generations, ${STEPS} steps each after a quiet spell (> ${PROGRESS_WRITE_INTERVAL_MS} ms, the write interval) and ${STEPS} a step every ${CHATTY_GAP_MS} ms (a chatty sampler); workers on.`,
	);
	const results: Array<{ label: string; quiet: Summary; chatty: Summary }> = [];
	const record = (label: string, measurement: Measurement) =>
		results.push({
			label,
			quiet: summarize(measurement.quiet),
			chatty: summarize(measurement.chatty),
		});

	record("PGlite (in-memory)", await benchDatabase("PGlite", await openBenchPglite()));
	const postgres = await startBenchPostgres();
	if (postgres) {
		try {
			console.log(`PostgreSQL: ${postgres.source}`);
			record("PostgreSQL", await benchDatabase("PostgreSQL", await postgres.openDatabase()));
		} finally {
			await postgres.stop();
		}
	}

	console.log("");
	printTable(
		["database", "cadence", "median", "p95", "max", `target < ${TARGET_MS} ms`],
		results.flatMap(({ label, quiet, chatty }) =>
			(
				[
					["after a quiet spell", quiet],
					[`every ${CHATTY_GAP_MS} ms`, chatty],
				] as const
			).map(([cadence, summary]) => [
				label,
				cadence,
				formatMs(summary.median),
				formatMs(summary.p95),
				formatMs(summary.max),
				summary.median < TARGET_MS && summary.p95 < TARGET_MS ? "met" : "MISSED",
			]),
		),
	);
	if (!postgres) console.log("\n!! PostgreSQL row is missing: PostgreSQL was SKIPPED (see above).");
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
