// Benchmark of the fair queue (decision 020): ten people with uneven demand, one worker
// (GENERATION_CONCURRENCY=1), the offline engine with a fixed delay. One person queues 20
// generations first, then nine others queue 1 to 3 each. Prints each person's wait, from the
// request to the start and to the completion, beside what first-come-first-served would have
// given (each generation's start in creation order, from the measured time per generation).
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs fair-queue
// Optional: DELAY_MS=200

import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { createBenchServer, formatMs, openBenchPglite, signUp } from "./bench-support";

const DELAY_MS = Number(process.env.DELAY_MS ?? 200);
const DEMAND = [20, 1, 3, 2, 1, 2, 3, 1, 2, 1];

const server = await createBenchServer({
	database: await openBenchPglite(),
	provider: createLocalProvider({ delayMs: DELAY_MS }),
	settings: {
		concurrency: 1,
		limits: { maxActivePerUser: 25, dailyLimitPerUser: 0 },
	},
	isWorkerEnabled: true,
});
try {
	const people = [];
	for (const [index, count] of DEMAND.entries()) {
		people.push({
			name: `person ${index + 1}`,
			count,
			...(await signUp(server, `fair-${index}@example.com`)),
		});
	}
	const requested = new Map<string, { person: string; at: number }>();
	for (const person of people) {
		for (let index = 0; index < person.count; index++) {
			const response = await server.app.request("/api/generations", {
				method: "POST",
				headers: {
					"content-type": "application/json",
					origin: "http://localhost:3000",
					cookie: person.cookie,
				},
				body: JSON.stringify({ prompt: `${person.name} #${index + 1}`, aspectRatio: "--ar 1:1" }),
			});
			if (response.status !== 201) throw new Error(`queueing failed: ${response.status}`);
			const { id } = (await response.json()) as { id: string };
			requested.set(id, { person: person.name, at: Date.now() });
		}
	}
	const total = requested.size;
	for (;;) {
		const done = await server.database.db
			.selectFrom("generations")
			.select((eb) => eb.fn.countAll<string>().as("count"))
			.where("status", "in", ["completed", "failed"])
			.executeTakeFirstOrThrow();
		if (Number(done.count) >= total) break;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const rows = await server.database.db
		.selectFrom("generations")
		.select(["id", "created_at", "started_at", "completed_at", "status"])
		.orderBy("created_at")
		.execute();
	const runMs =
		rows.reduce(
			(sum, row) => sum + ((row.completed_at?.getTime() ?? 0) - (row.started_at?.getTime() ?? 0)),
			0,
		) / rows.length;
	const waits = new Map<string, { start: number[]; done: number[]; fifoStart: number[] }>();
	const firstCreated = rows[0]?.created_at.getTime() ?? 0;
	for (const [index, row] of rows.entries()) {
		const person = requested.get(row.id)?.person ?? "?";
		const entry = waits.get(person) ?? { start: [], done: [], fifoStart: [] };
		const created = row.created_at.getTime();
		entry.start.push((row.started_at?.getTime() ?? created) - created);
		entry.done.push((row.completed_at?.getTime() ?? created) - created);
		// First come, first served with one worker: the index-th generation starts after index runs.
		entry.fifoStart.push(Math.max(0, firstCreated + index * runMs - created));
		waits.set(person, entry);
	}
	console.log(
		`fair queue: ${total} generations, one worker, ${formatMs(runMs)} a generation (provider delay ${DELAY_MS} ms)`,
	);
	console.log(
		"person     queued  to start (mean, max)    to done (mean, max)     FIFO to start (mean, max)",
	);
	const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
	for (const person of people) {
		const entry = waits.get(person.name);
		if (!entry) continue;
		console.log(
			[
				person.name.padEnd(10),
				String(person.count).padStart(6),
				`${formatMs(mean(entry.start))}, ${formatMs(Math.max(...entry.start))}`.padStart(22),
				`${formatMs(mean(entry.done))}, ${formatMs(Math.max(...entry.done))}`.padStart(22),
				`${formatMs(mean(entry.fifoStart))}, ${formatMs(Math.max(...entry.fifoStart))}`.padStart(
					26,
				),
			].join("  "),
		);
	}
} finally {
	await server.close();
}
