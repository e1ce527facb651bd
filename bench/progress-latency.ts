// Benchmark of progress latency: how long after the image provider reports a change does an open
// long poll (GET {pollingUrl}?wait=5000) answer with it? Target: under 250 ms (median and p95).
// ComfyUI: the fake sends a sampler step on its WebSocket; the span covers the WebSocket message,
// the run's throttled progress write, NOTIFY, and the poll's wake-up and read. Two cadences: a step
// after a quiet spell (the throttle writes the first news at once), and a chatty sampler sending a
// step every 50 ms (news within the interval waits for its end).
// OpenAI: the fake sends a partial image on its streamed answer; the span adds reading the event,
// decoding the frame and storing it as the preview. The run asks OpenAI as the product does (every
// 1,000 ms); the same frames are also timed with the adapter's watch taken away, as they went
// before it (kept for the next check), for comparison.
// Each poll is sent a little before the provider speaks and names the version of the last answer
// (`after`), as the web page does: one that reaches the server only after the change was written
// answers at once. Without `after` it would wait its whole 5 s; such "late polls" (an answer 5 s
// or later) are counted beside the figures, and should be none.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs progress-latency
// Optional: GENERATIONS=3 STEPS=10 OPENAI_GENERATIONS=10 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { PROGRESS_WRITE_INTERVAL_MS } from "../src/server/generations/run/progress-reporter";
import { createModelCatalogue, modelFromProvider } from "../src/server/models/model-catalogue";
import { createComfyUiProvider } from "../src/server/providers/comfyui/comfyui-provider";
import { createOpenAiProvider } from "../src/server/providers/openai/openai-provider";
import type { ImageProvider } from "../src/server/providers/types";
import { DEFAULT_RUN_SETTINGS } from "../src/server/server";
import { type FakeComfyUi, startFakeComfyUi } from "../src/server/testing/fakes/comfyui";
import { FAKE_OPENAI_KEY, startFakeOpenAi } from "../src/server/testing/fakes/openai";
import {
	type BenchServer,
	createBenchServer,
	DATABASE_NAMES,
	forEachBenchDatabase,
	formatMs,
	printTable,
	type Summary,
	signUp,
	summarize,
} from "./bench-support";

const GENERATIONS = Number(process.env.GENERATIONS ?? 3);
const STEPS = Number(process.env.STEPS ?? 10);
const OPENAI_GENERATIONS = Number(process.env.OPENAI_GENERATIONS ?? 10);
// The most OpenAI streams: each generation's call sends this many partial images.
const PARTIAL_IMAGES = 3;
const POLL_WAIT_MS = 5_000;
const SETTLE_MS = 30;
// How long before the provider speaks a poll is sent after a quiet spell: time for the request to
// pass the app (the session lookup among it) and start waiting, also on a busy two-core machine.
// The chatty sampler keeps SETTLE_MS, so its steps still come within the write interval.
const HEAD_START_MS = 100;
const CHATTY_GAP_MS = 50;
const TARGET_MS = 250;
const ORIGIN = "http://localhost:3000";
const FOREVER_MS = 60 * 60 * 1000;

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

type Poll = {
	status: string;
	progress: { step: number | null; previewUrl: string | null } | null;
	version: string;
};

// The version of the last answer each polling URL gave: the next poll names it as `after`, as the
// web page does, so a change written before the poll arrives is answered at once.
const lastVersions = new Map<string, string>();

async function poll(server: BenchServer, cookie: string, url: string, waitMs: number) {
	const after = lastVersions.get(url);
	const query = `wait=${waitMs}${after ? `&after=${encodeURIComponent(after)}` : ""}`;
	const response = await server.app.request(`${url}?${query}`, { headers: { cookie } });
	if (response.status !== 200) throw new Error(`poll answered ${response.status}`);
	const answer = (await response.json()) as Poll;
	lastVersions.set(url, answer.version);
	return answer;
}

/** Long-polls until an answer shows `what`; when it came. */
async function pollUntil(
	server: BenchServer,
	cookie: string,
	url: string,
	what: string,
	isSeen: (answer: Poll) => boolean,
) {
	for (let attempt = 0; attempt < 20; attempt++) {
		const answer = await poll(server, cookie, url, POLL_WAIT_MS);
		if (isSeen(answer)) return performance.now();
		if (answer.status === "completed" || answer.status === "failed") break;
	}
	throw new Error(`${what} never reached the poll`);
}

function pollUntilStep(server: BenchServer, cookie: string, url: string, step: number) {
	return pollUntil(
		server,
		cookie,
		url,
		`step ${step}`,
		(answer) => (answer.progress?.step ?? 0) >= step,
	);
}

async function startGeneration(
	server: BenchServer,
	cookie: string,
	request: Record<string, unknown>,
): Promise<string> {
	const created = await server.app.request("/api/generations", {
		method: "POST",
		headers: { "content-type": "application/json", origin: ORIGIN, cookie },
		body: JSON.stringify({ aspectRatio: "--ar 1:1", count: 1, ...request }),
	});
	if (created.status !== 201) throw new Error(`create answered ${created.status}`);
	return ((await created.json()) as { pollingUrl: string }).pollingUrl;
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
		settings: { concurrency: 2 },
		isWorkerEnabled: true,
	});
	const measurement: Measurement = { quiet: [], chatty: [] };
	try {
		const { cookie } = await signUp(server, "progress-person@example.com");
		for (let run = 0; run < GENERATIONS; run++) {
			fake.setBehaviour({ runningMs: FOREVER_MS });
			const pollingUrl = await startGeneration(server, cookie, { prompt: `progress run ${run}` });
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
					await sleep(cadence === "quiet" ? HEAD_START_MS : SETTLE_MS);
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

type OpenAiMeasurement = { watched: number[]; checked: number[] };

/**
 * OpenAI's partial images: one generation at a time, each call streaming PARTIAL_IMAGES frames
 * when told, each after a quiet spell of a random length (so a frame falls anywhere between two
 * checks); from the fake's send to the poll's answer naming a new preview. Two models on the same adapter settings: the adapter as it is (its watch hands each
 * frame over as it arrives), and the same without its watch (each frame kept for the next check).
 */
async function benchOpenAi(label: string, database: Database): Promise<OpenAiMeasurement> {
	const fake = await startFakeOpenAi({ behaviour: { latencyMs: 0, holdsStreams: true } });
	const adapter = () =>
		createOpenAiProvider({
			apiKey: FAKE_OPENAI_KEY,
			baseUrl: fake.baseUrl,
			partialImages: PARTIAL_IMAGES,
		});
	const { watch: _unwatched, ...checkedOnly }: ImageProvider = adapter();
	const server = await createBenchServer({
		database,
		provider: createModelCatalogue(
			[
				modelFromProvider(adapter(), { id: "watched", label: "OpenAI" }),
				modelFromProvider(checkedOnly, { id: "checked", label: "OpenAI, checks only" }),
			],
			"watched",
		),
		// The product's own pace of checks: a frame left for the next check waits for it.
		settings: {
			concurrency: 2,
			run: { providerPollMs: DEFAULT_RUN_SETTINGS.providerPollMs },
		},
		isWorkerEnabled: true,
	});
	const measurement: OpenAiMeasurement = { watched: [], checked: [] };
	try {
		const { cookie } = await signUp(server, "openai-progress-person@example.com");
		for (let run = 0; run < OPENAI_GENERATIONS; run++) {
			for (const [model, samples] of [
				["watched", measurement.watched],
				["checked", measurement.checked],
			] as const) {
				const pollingUrl = await startGeneration(server, cookie, {
					prompt: `partial image run ${run}`,
					model,
				});
				await waitFor(() => fake.heldStreams() === 1, "the call to stream");
				let shown: string | null = null;
				for (let frame = 0; frame < PARTIAL_IMAGES; frame++) {
					// A quiet spell, and a random share of the time between two checks: each frame
					// falls anywhere between them, not always at the same distance from the next.
					const between = Math.random() * DEFAULT_RUN_SETTINGS.providerPollMs;
					await sleep(PROGRESS_WRITE_INTERVAL_MS + SETTLE_MS + between);
					const before = shown;
					let seen: string | null = null;
					const answered = pollUntil(server, cookie, pollingUrl, "a new preview", (answer) => {
						seen = answer.progress?.previewUrl ?? null;
						return seen !== null && seen !== before;
					});
					await sleep(HEAD_START_MS);
					const sentAt = performance.now();
					if ((await fake.sendPartialImage()) !== 1) throw new Error("no partial image was sent");
					samples.push((await answered) - sentAt);
					shown = seen;
				}
				await fake.finishStreams();
				await waitFor(
					async () => (await poll(server, cookie, pollingUrl, POLL_WAIT_MS)).status === "completed",
					"the generation to complete",
				);
			}
		}
		const watched = summarize(measurement.watched);
		console.log(
			`[${label}] ${measurement.watched.length} OpenAI partial images: median ${formatMs(watched.median)}, p95 ${formatMs(watched.p95)}`,
		);
		return measurement;
	} finally {
		await server.close();
		await fake.stop();
	}
}

async function main(): Promise<void> {
	console.log(
		`Progress latency benchmark: the provider reports a change -> an open GET {pollingUrl}?wait=${POLL_WAIT_MS} answers with it. ` +
			`ComfyUI (the fake sends a sampler step on its WebSocket): ${GENERATIONS} generations, ${STEPS} steps each after a quiet spell (> ${PROGRESS_WRITE_INTERVAL_MS} ms, the write interval) and ${STEPS} a step every ${CHATTY_GAP_MS} ms (a chatty sampler). ` +
			`OpenAI (the fake streams a partial image): ${OPENAI_GENERATIONS} generations of ${PARTIAL_IMAGES} frames each after a quiet spell, checks every ${DEFAULT_RUN_SETTINGS.providerPollMs} ms, handed over at once (watch) and, for comparison, left for the next check. Workers on.`,
	);
	const rows: Array<{ label: string; source: string; samples: number[]; isCompared?: boolean }> =
		[];
	const record = (label: string, measurement: Measurement, openAi: OpenAiMeasurement) =>
		rows.push(
			{ label, source: "ComfyUI step, after a quiet spell", samples: measurement.quiet },
			{ label, source: `ComfyUI step, every ${CHATTY_GAP_MS} ms`, samples: measurement.chatty },
			{ label, source: "OpenAI partial image", samples: openAi.watched },
			{
				label,
				source: "OpenAI partial image, next check",
				samples: openAi.checked,
				isCompared: true,
			},
		);

	const measured = await forEachBenchDatabase(async ({ kind, label, source, open }) => {
		if (kind === "postgres") console.log(`PostgreSQL: ${source}`);
		record(
			label,
			await benchDatabase(DATABASE_NAMES[kind], await open()),
			await benchOpenAi(DATABASE_NAMES[kind], await open()),
		);
	});

	console.log("");
	printTable(
		["database", "change", "median", "p95", "max", "late polls", `target < ${TARGET_MS} ms`],
		rows.map(({ label, source, samples, isCompared }) => {
			const summary: Summary = summarize(samples);
			return [
				label,
				source,
				formatMs(summary.median),
				formatMs(summary.p95),
				formatMs(summary.max),
				`${samples.filter((sample) => sample >= POLL_WAIT_MS).length} of ${samples.length}`,
				isCompared
					? "(as before watch)"
					: summary.median < TARGET_MS && summary.p95 < TARGET_MS
						? "met"
						: "MISSED",
			];
		}),
	);
	console.log(
		`\nLate polls: answers that took the poll's whole ${POLL_WAIT_MS} ms. A poll that reaches the server after the change was written (its way through the app longer than its head start: ${HEAD_START_MS} ms, ${SETTLE_MS} ms for the chatty sampler) names the answer it last saw (after), so it is answered at once: there should be none.`,
	);
	if (!measured.includes("postgres"))
		console.log("\n!! PostgreSQL row is missing: PostgreSQL was SKIPPED (see above).");
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
