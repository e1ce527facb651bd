// Load benchmark: a crowd arriving at once. PEOPLE simulated people (100) come to one built server
// (dist/server/main.js, its own OS process, as `npm start` runs it) within ARRIVAL_S seconds (5) and
// use it for DURATION_S seconds (60): each signs up, then, again and again, starts a generation
// with the offline engine, follows it to the end, lists their history, opens a thumbnail and
// sometimes deletes a generation, with a pause between rounds. Runs on the embedded database and
// on PostgreSQL. Prints the answers by route and status, per-route p50 / p95 / max, the
// generations' time to completion, and the server process's memory: RSS idle before the crowd,
// the peak while it is there, and idle after.
// Needs `npm run build` first. Run from the repository root (see bench/README.md):
//   node bench/run.mjs load
// Optional: PEOPLE=100 DURATION_S=60 ARRIVAL_S=5 THINK_MS=1000-3000 DELETE_SHARE=0.2
//   DATABASES=pglite,postgres SERVER=dist/server/main.js BENCH_DATABASE_URL=postgres://...
//   MALLOC_ARENA_MAX=2 (as `npm start` sets it; `none` leaves glibc's default)
//   and the server variables in SERVER_VARIABLES (DATABASE_POOL_MAX, GENERATION_CONCURRENCY, ...).

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Agent, request } from "undici";
import { findFreePort } from "../src/server/testing/postgres-cluster";
import {
	type ServerProcess,
	spawnServer,
	waitUntilHealthy,
} from "../src/server/testing/server-process";
import { POLLING_INTERVAL_MS } from "../src/shared/core/constants";
import { ASPECT_RATIO_VALUES } from "../src/shared/generations/aspect-ratios";
import {
	formatLoadAverage,
	formatMs,
	percentile,
	printTable,
	startBenchPostgres,
} from "./bench-support";
import { PageStream } from "./load-stream";

const PEOPLE = Number(process.env.PEOPLE ?? 100);
const DURATION_MS = Number(process.env.DURATION_S ?? 60) * 1000;
const ARRIVAL_MS = Number(process.env.ARRIVAL_S ?? 5) * 1000;
const [THINK_MIN_MS = 1000, THINK_MAX_MS = 3000] = (process.env.THINK_MS ?? "1000-3000")
	.split("-")
	.map(Number);
const DELETE_SHARE = Number(process.env.DELETE_SHARE ?? 0.2);
const DATABASES = (process.env.DATABASES ?? "pglite,postgres")
	.split(",")
	.map((name) => name.trim());
const SERVER = process.env.SERVER ?? "dist/server/main.js";
const MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? "2";
/** Where each run's server log is written (`<SERVER_LOG>.<label>.log`); kept nowhere without it. */
const SERVER_LOG = process.env.SERVER_LOG;
const REQUEST_TIMEOUT_MS = 30_000;
/** A fresh embedded database is created at the first start: on a busy machine that takes a while. */
const START_TIMEOUT_MS = 180_000;
/** After the crowd's time is up, how long a person may still follow a generation already started. */
const FINISH_GRACE_MS = 60_000;
/** How long the server is left alone before its idle memory is read, before and after the crowd. */
const IDLE_SETTLE_MS = 10_000;
const PASSWORD = "correct horse battery";
const SECRET = "bench-secret-that-is-at-least-32-characters-long";
const PROMPTS = [
	"a lighthouse in a storm, oil painting",
	"a quiet street in Kyoto at dawn",
	"a fox made of autumn leaves",
	"an astronaut reading in a library",
	"a bowl of ramen, studio photo",
];
// The server's own variables, passed on when set here.
const SERVER_VARIABLES = [
	"DATABASE_POOL_MAX",
	"GENERATION_CONCURRENCY",
	"LOCAL_ENGINE_DELAY_MS",
	"MAX_ACTIVE_GENERATIONS_PER_USER",
	"AUTH_RATE_LIMIT_ENABLED",
	"LOG_LEVEL",
];

type Sample = { route: string; status: string; ms: number };

type Counters = {
	signedUp: number;
	started: number;
	failed: number;
	signUpMs: number[];
	/** For each generation followed to its end: the polls it took. */
	pollsPerGeneration: number[];
	/** For each generation followed to its end: the stream's events it took. */
	eventsPerGeneration: number[];
	/** Generations seen completed within the crowd's time (not its grace after). */
	completedInTime: number;
};

type Run = {
	label: string;
	samples: Sample[];
	completions: number[];
	generationsStarted: number;
	generationsFailed: number;
	pollsPerGeneration: number[];
	eventsPerGeneration: number[];
	completedInTime: number;
	signedUp: number;
	/** Each person's time from arriving to being signed up, retries included. */
	signUpMs: number[];
	/** From spawning the server to its first healthy answer. */
	startMs: number;
	memory: {
		/** The peak RSS of the start (VmHWM when it first answered). */
		startPeakMb: number;
		idleMb: number;
		/** The peak RSS while the crowd was there. */
		peakMb: number;
		/** Whether `peakMb` is the kernel's high-water mark (else samples every 200 ms). */
		isPeakReset: boolean;
		afterMb: number;
	};
	/** CPU seconds the server used while the crowd was there. */
	serverCpuSeconds: number;
	loadAverage: string;
	wallMs: number;
};

function readMemoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
	try {
		const status = readFileSync(`/proc/${pid}/status`, "utf8");
		const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
		return match ? Number(match[1]) / 1024 : Number.NaN;
	} catch {
		return Number.NaN;
	}
}

/** CPU seconds the process has used (user + system). */
function readCpuSeconds(pid: number): number {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		// utime and stime, in clock ticks of 1/100 s on Linux.
		return (Number(fields[11]) + Number(fields[12])) / 100;
	} catch {
		return Number.NaN;
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomBetween = (low: number, high: number) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/**
 * Resets the process's peak RSS (VmHWM) to its current RSS (Linux 4.0+), so that the peak read
 * afterwards is the crowd's and not the start's. False where that is not possible.
 */
function resetPeakMemory(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, "5");
		return true;
	} catch {
		return false;
	}
}

async function stopServer(server: ServerProcess) {
	const timer = setTimeout(() => void server.kill("SIGKILL"), 20_000);
	await server.kill("SIGTERM");
	clearTimeout(timer);
}

/** One simulated person: their own address, cookie jar and timings. */
class Person {
	private cookie = "";
	readonly own: { id: string; isCompleted: boolean }[] = [];

	constructor(
		private readonly origin: string,
		private readonly address: string,
		private readonly dispatcher: Agent,
		private readonly samples: Sample[],
	) {}

	async request(
		route: string,
		pathname: string,
		init: { method?: string; json?: unknown } = {},
	): Promise<{ status: number; body: unknown; retryAfterS?: number }> {
		const headers: Record<string, string> = {
			origin: this.origin,
			"x-forwarded-for": this.address,
			accept: "application/json",
			// As a browser would, so the server compresses as it does for people.
			"accept-encoding": "gzip",
		};
		if (this.cookie) headers.cookie = this.cookie;
		if (init.json !== undefined) headers["content-type"] = "application/json";
		const started = performance.now();
		try {
			const response = await request(new URL(pathname, this.origin), {
				method: (init.method ?? "GET") as "GET" | "POST" | "DELETE",
				headers,
				body: init.json === undefined ? undefined : JSON.stringify(init.json),
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
				dispatcher: this.dispatcher,
			});
			const raw = Buffer.from(await response.body.arrayBuffer());
			const ms = performance.now() - started;
			const setCookie = response.headers["set-cookie"];
			for (const cookie of typeof setCookie === "string" ? [setCookie] : (setCookie ?? [])) {
				this.keepCookie(cookie);
			}
			const contentType = String(response.headers["content-type"] ?? "");
			let body: unknown;
			if (contentType.includes("json") && raw.length > 0) {
				const text = (
					response.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw
				).toString("utf8");
				body = JSON.parse(text);
			}
			// A failure answered without the error envelope is a defect of its own: count it apart.
			const isBare = response.statusCode >= 500 && raw.length === 0;
			const status = `${response.statusCode}${isBare ? " (empty body)" : ""}`;
			this.samples.push({ route, status, ms });
			const retryAfter = Number(response.headers["retry-after"]);
			return {
				status: response.statusCode,
				body,
				...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterS: retryAfter } : {}),
			};
		} catch (error) {
			const ms = performance.now() - started;
			const name = error instanceof Error ? error.name : "error";
			this.samples.push({
				route,
				status: name === "TimeoutError" ? "timeout" : "network error",
				ms,
			});
			return { status: 0, body: undefined };
		}
	}

	/** The page's one stream of its generations, with this person's session. */
	openStream(): PageStream {
		return new PageStream(
			this.origin,
			() => ({
				origin: this.origin,
				"x-forwarded-for": this.address,
				...(this.cookie ? { cookie: this.cookie } : {}),
			}),
			this.dispatcher,
			this.samples,
		);
	}

	private keepCookie(setCookie: string) {
		const pair = setCookie.split(";")[0] ?? "";
		const name = pair.slice(0, pair.indexOf("="));
		const jar = new Map(
			this.cookie
				.split("; ")
				.filter(Boolean)
				.map((entry) => [entry.slice(0, entry.indexOf("=")), entry] as const),
		);
		jar.set(name, pair);
		this.cookie = [...jar.values()].join("; ");
	}
}

async function simulatePerson(
	person: Person,
	index: number,
	endsAt: number,
	completions: number[],
	counters: Counters,
) {
	await sleep(randomBetween(0, ARRIVAL_MS));
	const arrivedAt = performance.now();
	const email = `crowd-${index}-${Date.now()}@example.com`;
	// Someone whose sign-up fails tries again a little later, like a person would; told the account
	// exists (an earlier attempt went through after they gave up on it), they sign in instead.
	for (let attempt = 0; ; attempt++) {
		const signUp = await person.request("POST /api/auth/sign-up/email", "/api/auth/sign-up/email", {
			method: "POST",
			json: { email, password: PASSWORD, name: `crowd ${index}` },
		});
		if (signUp.status === 200) break;
		if (signUp.status === 422) {
			const signIn = await person.request(
				"POST /api/auth/sign-in/email",
				"/api/auth/sign-in/email",
				{
					method: "POST",
					json: { email, password: PASSWORD },
				},
			);
			if (signIn.status === 200) break;
		}
		if (attempt >= 4 || Date.now() > endsAt) return;
		// As the web app would: after the time the server asked for, else a little later.
		await sleep((signUp.retryAfterS ?? 2) * 1000);
	}
	counters.signedUp += 1;
	counters.signUpMs.push(performance.now() - arrivedAt);
	await person.request("GET /api/auth/get-session", "/api/auth/get-session");
	// The page's one stream of its generations, as the web app opens it; without one (a build
	// before it), each generation is polled.
	const stream = person.openStream();
	await stream.open();
	try {
		await generateUntil(person, stream, endsAt, completions, counters);
	} finally {
		stream.close();
	}
}

async function generateUntil(
	person: Person,
	stream: PageStream,
	endsAt: number,
	completions: number[],
	counters: Counters,
) {
	while (Date.now() < endsAt) {
		const created = await person.request("POST /api/generations", "/api/generations", {
			method: "POST",
			json: { prompt: pick(PROMPTS), aspectRatio: pick(ASPECT_RATIO_VALUES) },
		});
		const createdBody = created.body as { id?: string; pollingUrl?: string } | undefined;
		if (created.status === 201 && createdBody?.id && createdBody.pollingUrl) {
			counters.started += 1;
			const startedAt = performance.now();
			const own = { id: createdBody.id, isCompleted: false };
			person.own.push(own);
			let polls = 0;
			const end = (status: string | undefined) => {
				counters.pollsPerGeneration.push(polls);
				counters.eventsPerGeneration.push(stream.eventsFor(own.id));
				if (status === "completed") {
					completions.push(performance.now() - startedAt);
					if (Date.now() < endsAt) counters.completedInTime += 1;
					own.isCompleted = true;
				} else counters.failed += 1;
			};
			if (stream.isAvailable) {
				// Through the page's stream, as the web app follows it: the status route asked once only
				// where the stream left it in doubt (it left the list while the stream reconnected).
				const outcome = await stream.waitForEnd(own.id, endsAt + FINISH_GRACE_MS);
				if (outcome === "left") {
					polls += 1;
					const poll = await person.request(
						"GET /api/generations/:id/status",
						`${createdBody.pollingUrl}?wait=0`,
					);
					const status = (poll.body as { status?: string } | undefined)?.status;
					if (status === "completed" || status === "failed") end(status);
				} else if (outcome !== "timeout") end(outcome.status);
			}
			// Else follow it as the earlier web app did (follow-generation.ts): GET {pollingUrl} again and again,
			// naming the last answer's version (`after`); the server holds each until the generation
			// changes or the polling interval passes. An answer with news (a new status or progress)
			// is followed by the next poll at once; one with nothing new, or a failed poll, is spaced
			// out to the interval. A build whose answers carry no progress or version is followed on
			// its status alone, as its own page did.
			let lastNews: string | undefined;
			let lastVersion: string | undefined;
			while (!stream.isAvailable && Date.now() < endsAt + FINISH_GRACE_MS) {
				const pollStartedAt = performance.now();
				polls += 1;
				const poll = await person.request(
					"GET /api/generations/:id/status",
					lastVersion
						? `${createdBody.pollingUrl}?after=${encodeURIComponent(lastVersion)}`
						: createdBody.pollingUrl,
				);
				const body = poll.body as
					| { status?: string; progress?: unknown; version?: string }
					| undefined;
				const status = body?.status;
				if (status === "completed" || status === "failed") {
					end(status);
					break;
				}
				if (poll.status !== 200) {
					await sleep(Math.max(0, POLLING_INTERVAL_MS - (performance.now() - pollStartedAt)));
					continue;
				}
				lastVersion = body?.version;
				const news = `${status} ${JSON.stringify(body?.progress ?? null)}`;
				const isNews = news !== lastNews;
				lastNews = news;
				if (!isNews) {
					await sleep(Math.max(0, POLLING_INTERVAL_MS - (performance.now() - pollStartedAt)));
				}
			}
		}

		await person.request("GET /api/auth/get-session", "/api/auth/get-session");
		const page = await person.request(
			"GET /api/generations",
			"/api/generations?limit=24&timeZone=UTC",
		);
		const items =
			(page.body as { items?: { images?: { thumbnailUrl?: string }[] }[] } | undefined)?.items ??
			[];
		const thumbnail = items.flatMap((item) => item.images ?? [])[0]?.thumbnailUrl;
		if (thumbnail) await person.request("GET /api/images/… (a thumbnail)", thumbnail);

		const completed = person.own.filter((item) => item.isCompleted);
		if (completed.length > 0 && Math.random() < DELETE_SHARE) {
			const victim = pick(completed);
			await person.request("DELETE /api/generations/:id", `/api/generations/${victim.id}`, {
				method: "DELETE",
			});
			person.own.splice(person.own.indexOf(victim), 1);
		}
		await sleep(randomBetween(THINK_MIN_MS, THINK_MAX_MS));
	}
}

async function runCrowd(label: string, serverEnv: Record<string, string>): Promise<Run> {
	const port = await findFreePort();
	const origin = `http://127.0.0.1:${port}`;
	const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-load-"));
	const passed = Object.fromEntries(
		SERVER_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
	);
	const server = spawnServer(SERVER, {
		NODE_ENV: "production",
		PORT: String(port),
		BASE_URL: origin,
		DATA_DIR: dataDir,
		// Every simulated person has an address of their own, as a crowd would.
		TRUST_PROXY: "true",
		LOG_LEVEL: "warn",
		// The offline engine: nothing leaves 127.0.0.1.
		IMAGE_PROVIDER: "local",
		...(MALLOC_ARENA_MAX === "none" ? {} : { MALLOC_ARENA_MAX }),
		...passed,
		...serverEnv,
	});
	const pid = server.child.pid ?? 0;
	const dispatcher = new Agent({ connections: PEOPLE * 2, keepAliveTimeout: 30_000 });
	try {
		const startedAt = performance.now();
		await waitUntilHealthy(server, START_TIMEOUT_MS);
		const startMs = performance.now() - startedAt;
		const startPeakMb = readMemoryMb(pid, "VmHWM");
		await sleep(IDLE_SETTLE_MS);
		const idleMb = readMemoryMb(pid, "VmRSS");
		const isPeakReset = resetPeakMemory(pid);
		let sampledPeakMb = idleMb;
		const sampler = setInterval(() => {
			const now = readMemoryMb(pid, "VmRSS");
			if (now > sampledPeakMb) sampledPeakMb = now;
		}, 200);

		const samples: Sample[] = [];
		const completions: number[] = [];
		const counters: Counters = {
			signedUp: 0,
			started: 0,
			failed: 0,
			signUpMs: [],
			pollsPerGeneration: [],
			eventsPerGeneration: [],
			completedInTime: 0,
		};
		const cpuBefore = readCpuSeconds(pid);
		const started = performance.now();
		const endsAt = Date.now() + DURATION_MS;
		try {
			await Promise.all(
				Array.from({ length: PEOPLE }, (_, index) => {
					// 10.x.y.z: a private address per person, read by the server from X-Forwarded-For.
					const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
					const person = new Person(origin, address, dispatcher, samples);
					return simulatePerson(person, index, endsAt, completions, counters);
				}),
			);
		} finally {
			clearInterval(sampler);
		}
		const wallMs = performance.now() - started;
		const serverCpuSeconds = readCpuSeconds(pid) - cpuBefore;
		const peakMb = isPeakReset
			? Math.max(readMemoryMb(pid, "VmHWM"), sampledPeakMb)
			: sampledPeakMb;
		const loadAverage = formatLoadAverage();
		await sleep(IDLE_SETTLE_MS);
		const afterMb = readMemoryMb(pid, "VmRSS");
		const serverErrors = server
			.output()
			.split("\n")
			.filter((line) => line.includes('"level":"error"'));
		if (serverErrors.length > 0) {
			console.log(`  ${label}: the server logged ${serverErrors.length} errors; the first:`);
			for (const line of serverErrors.slice(0, 3)) console.log(`    ${line.slice(0, 300)}`);
		}
		return {
			label,
			samples,
			completions,
			generationsStarted: counters.started,
			generationsFailed: counters.failed,
			pollsPerGeneration: counters.pollsPerGeneration,
			eventsPerGeneration: counters.eventsPerGeneration,
			completedInTime: counters.completedInTime,
			signedUp: counters.signedUp,
			signUpMs: counters.signUpMs,
			startMs,
			memory: { startPeakMb, idleMb, peakMb, isPeakReset, afterMb },
			loadAverage,
			wallMs,
			serverCpuSeconds,
		};
	} catch (error) {
		console.log(`  ${label}: the server printed:\n${server.output().slice(-3000)}`);
		throw error;
	} finally {
		await dispatcher.close();
		await stopServer(server);
		if (SERVER_LOG) {
			const file = `${SERVER_LOG}.${label.replace(/[^a-z0-9]+/gi, "-")}.log`;
			writeFileSync(file, server.output());
			console.log(`  ${label}: the server's log is in ${file}`);
		}
		await rm(dataDir, { recursive: true, force: true });
	}
}

function printRun(run: Run) {
	console.log(`\n--- ${run.label} ---`);
	console.log(
		`${PEOPLE} people, ${run.signedUp} signed up; ${run.samples.length} requests in ${(run.wallMs / 1000).toFixed(1)} s; server CPU ${run.serverCpuSeconds.toFixed(1)} s; machine load average after (1/5/15 min): ${run.loadAverage}`,
	);

	const statuses = new Map<string, number>();
	for (const sample of run.samples)
		statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
	console.log(
		`answers by status: ${[...statuses]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([status, count]) => `${status}: ${count}`)
			.join(", ")}`,
	);

	const routes = [...new Set(run.samples.map((sample) => sample.route))];
	const rows = routes.map((route) => {
		const mine = run.samples.filter((sample) => sample.route === route);
		const sorted = mine.map((sample) => sample.ms).sort((a, b) => a - b);
		const failures = new Map<string, number>();
		for (const sample of mine) {
			if (/^[23]/.test(sample.status)) continue;
			failures.set(sample.status, (failures.get(sample.status) ?? 0) + 1);
		}
		return [
			route,
			String(mine.length),
			[...failures].map(([status, count]) => `${count}x ${status}`).join(", ") || "-",
			formatMs(percentile(sorted, 0.5)),
			formatMs(percentile(sorted, 0.95)),
			formatMs(sorted.at(-1) ?? Number.NaN),
		];
	});
	printTable(["route", "requests", "not 2xx", "p50", "p95", "max"], rows, 3);

	const signUps = run.samples
		.filter((sample) => sample.route === "POST /api/auth/sign-up/email")
		.map((sample) => sample.ms)
		.sort((a, b) => a - b);
	const refused = run.samples.filter(
		(sample) => sample.route === "POST /api/auth/sign-up/email" && !/^2/.test(sample.status),
	).length;
	const arrivalToSignedUp = [...run.signUpMs].sort((a, b) => a - b);
	console.log(
		`sign-ups: ${signUps.length} answered, ${refused} not 2xx; each answer p50 ${formatMs(percentile(signUps, 0.5))}, p95 ${formatMs(percentile(signUps, 0.95))}, max ${formatMs(signUps.at(-1) ?? Number.NaN)}, ${signUps.filter((ms) => ms > 15_000).length} over 15 s; arrival to signed up (retries included) p50 ${formatMs(percentile(arrivalToSignedUp, 0.5))}, max ${formatMs(arrivalToSignedUp.at(-1) ?? Number.NaN)}`,
	);

	const completions = [...run.completions].sort((a, b) => a - b);
	console.log(
		`generations: ${run.generationsStarted} started, ${completions.length} completed, ${run.generationsFailed} failed, ${run.generationsStarted - completions.length - run.generationsFailed} still unfinished ${FINISH_GRACE_MS / 1000} s after the crowd's time; start to completed seen: p50 ${formatMs(percentile(completions, 0.5))}, p95 ${formatMs(percentile(completions, 0.95))}`,
	);
	const polls = [...run.pollsPerGeneration].sort((a, b) => a - b);
	console.log(
		`polls per generation followed to its end (${polls.length}): p50 ${percentile(polls, 0.5)}, p95 ${percentile(polls, 0.95)}, max ${polls.at(-1) ?? Number.NaN}; completed within the crowd's ${DURATION_MS / 1000} s: ${run.completedInTime}, ${(run.completedInTime / (DURATION_MS / 1000)).toFixed(2)} a second`,
	);
	const events = [...run.eventsPerGeneration].sort((a, b) => a - b);
	const requestsEach = run.pollsPerGeneration.map(
		(count, index) => count + (run.eventsPerGeneration[index] ?? 0),
	);
	requestsEach.sort((a, b) => a - b);
	console.log(
		`stream events per generation (${events.length}): p50 ${percentile(events, 0.5)}, p95 ${percentile(events, 0.95)}, max ${events.at(-1) ?? Number.NaN}; events and polls together: p50 ${percentile(requestsEach, 0.5)}, p95 ${percentile(requestsEach, 0.95)}`,
	);
	const { startPeakMb, idleMb, peakMb, isPeakReset, afterMb } = run.memory;
	console.log(
		`server process memory (RSS): idle before the crowd ${idleMb.toFixed(0)} MB (started in ${(run.startMs / 1000).toFixed(1)} s, peak while starting ${startPeakMb.toFixed(0)} MB), peak with the crowd ${peakMb.toFixed(0)} MB${isPeakReset ? "" : " (sampled every 200 ms)"}, idle after ${afterMb.toFixed(0)} MB`,
	);
}

async function main() {
	if (
		!existsSync(SERVER) ||
		!existsSync(path.join(path.dirname(SERVER), "..", "web", "index.html"))
	) {
		console.error(`No built server at ${SERVER} (with its web app): run npm run build first.`);
		process.exit(1);
	}
	console.log(
		`load: ${PEOPLE} people arriving within ${ARRIVAL_MS / 1000} s, for ${DURATION_MS / 1000} s, pause ${THINK_MIN_MS}-${THINK_MAX_MS} ms between rounds, ${DELETE_SHARE * 100}% of rounds delete; server ${SERVER} with MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX}`,
	);
	console.log(`machine load average at the start (1/5/15 min): ${formatLoadAverage()}`);
	if (DATABASES.includes("pglite")) printRun(await runCrowd("embedded (PGlite)", {}));
	if (DATABASES.includes("postgres")) {
		const postgres = await startBenchPostgres();
		if (postgres) {
			const database = await postgres.createDatabase();
			try {
				printRun(
					await runCrowd(`${postgres.source} (memory: the server process only)`, {
						DATABASE_URL: database.url,
						BETTER_AUTH_SECRET: SECRET,
					}),
				);
			} finally {
				await database.drop();
				await postgres.stop();
			}
		}
	}
}

await main();
