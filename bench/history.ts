// Benchmark of the history page: server-side time of GET /api/generations for a person with
// 10,000 completed generations (plus 2,000 of someone else's), first page and ~200 pages deep, and
// searched and filtered, on embedded PGlite and on PostgreSQL. Targets: under 10 ms median for the
// plain pages, under 15 ms for search and filters.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs history
// Optional: ITERATIONS=200 WARMUP=20 ROWS=10000 OTHER_ROWS=2000 DEPTH=200 VACUUM=0|1 ANALYZE=0
//   BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { refreshStatistics } from "../src/server/db/embedded-statistics";
import { countHistory, selectHistoryPage } from "../src/server/generations/history-repository";
import { listHistory } from "../src/server/generations/request/list-history";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	type BenchServer,
	createBenchServer,
	describeMachine,
	formatLoadAverage,
	formatMs,
	openBenchPglite,
	printTable,
	type Summary,
	signUp,
	signUpAdministrator,
	startBenchPostgres,
	summarize,
} from "./bench-support";
import { seedHistory } from "./history-seed";

const ITERATIONS = Number(process.env.ITERATIONS ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 20);
const ROWS = Number(process.env.ROWS ?? 10_000);
const OTHER_ROWS = Number(process.env.OTHER_ROWS ?? 2_000);
const DEPTH = Number(process.env.DEPTH ?? 200);
// After seeding: PostgreSQL gets VACUUM ANALYZE, which its autovacuum would soon do by itself (and
// might otherwise do in the middle of the timings); PGlite has no autovacuum, so it gets the
// server's own statistics refresh (an ANALYZE), never a VACUUM, as a real embedded database.
// VACUUM=1 / VACUUM=0 force one way for both.
const VACUUM = process.env.VACUUM;
// ANALYZE=0 leaves PGlite without statistics, as it would be without the server's refresh.
const IS_ANALYZED = process.env.ANALYZE !== "0";
// DATABASES=pglite skips PostgreSQL.
const DATABASES = (process.env.DATABASES ?? "pglite,postgres").split(",");
const PAGE_SIZE = 24;
const PERSON_EMAIL = "history-person@example.com";
const PAGE_TARGET_MS = 10;
const SEARCH_TARGET_MS = 15;

type CaseResult = {
	database: string;
	name: string;
	summary: Summary;
	/** This process's CPU time per request (on PGlite the database's work too), median. */
	cpuMedian?: number;
	targetMs?: number;
};

/** Times an operation in-process, after warm-ups. */
async function timeCalls(call: () => Promise<unknown>): Promise<Summary> {
	for (let run = 0; run < WARMUP; run++) await call();
	const samples: number[] = [];
	for (let run = 0; run < ITERATIONS; run++) {
		const started = performance.now();
		await call();
		samples.push(performance.now() - started);
	}
	return summarize(samples);
}

/** The parts of the person's first page on their own, to show where the time goes. */
async function timeParts(
	server: BenchServer,
	cookie: string,
	userId: string,
): Promise<Array<{ name: string; summary: Summary }>> {
	const headers = new Headers({ cookie });
	const db = server.database.db;
	const todayStart = new Date(new Date().setUTCHours(0, 0, 0, 0));
	return [
		{
			name: "part: session lookup (auth.api.getSession)",
			summary: await timeCalls(() => server.auth.api.getSession({ headers })),
		},
		{
			name: "part: page query (selectHistoryPage)",
			summary: await timeCalls(() =>
				selectHistoryPage(db, {
					filters: { userId },
					cursor: undefined,
					limit: PAGE_SIZE + 1,
					isOwnerShown: false,
				}),
			),
		},
		{
			name: "part: counts (countHistory)",
			summary: await timeCalls(() => countHistory(db, { filters: { userId }, todayStart })),
		},
		{
			name: "part: listHistory (service, no HTTP/session)",
			summary: await timeCalls(() =>
				listHistory(
					{ database: server.database },
					{ id: userId, email: PERSON_EMAIL, isAdmin: false },
					{ limit: PAGE_SIZE, todayStart },
				),
			),
		},
		{
			name: "part: GET /api/health (app, 1 query)",
			summary: await timeCalls(async () => {
				const response = await server.app.request("/api/health");
				await response.text();
			}),
		},
	];
}

type Page = { items: unknown[]; nextCursor: string | null; total: number };

async function getPage(server: BenchServer, cookie: string, url: string): Promise<Page> {
	const response = await server.app.request(url, { headers: { cookie } });
	if (response.status !== 200) {
		throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
	}
	return (await response.json()) as Page;
}

/** The cursor `depth` pages in, found by following nextCursor like the infinite scroll does. */
async function cursorAtDepth(
	server: BenchServer,
	cookie: string,
	depth: number,
	query = "",
): Promise<string> {
	let cursor: string | null = null;
	for (let page = 0; page < depth; page++) {
		const url: string = `/api/generations?limit=${PAGE_SIZE}${query}${cursor ? `&cursor=${cursor}` : ""}`;
		const body = await getPage(server, cookie, url);
		if (!body.nextCursor) throw new Error(`history ended after ${page + 1} pages`);
		cursor = body.nextCursor;
	}
	if (!cursor) throw new Error("no cursor");
	return cursor;
}

/** Times `url` (request to body read) through the app, after warm-ups. */
async function timeRequests(
	server: BenchServer,
	cookie: string,
	url: string,
	expect: { items: number; total: number | undefined },
): Promise<{ summary: Summary; cpuMedian: number }> {
	const check = await getPage(server, cookie, url);
	const isTotalWrong = expect.total !== undefined && check.total !== expect.total;
	if (check.items.length !== expect.items || isTotalWrong) {
		throw new Error(
			`GET ${url}: ${check.items.length} items of ${check.total}, expected ${expect.items} of ${expect.total}`,
		);
	}
	for (let run = 0; run < WARMUP; run++) await getPage(server, cookie, url);
	const samples: number[] = [];
	const cpuSamples: number[] = [];
	for (let run = 0; run < ITERATIONS; run++) {
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const response = await server.app.request(url, { headers: { cookie } });
		await response.text();
		samples.push(performance.now() - started);
		const cpu = process.cpuUsage(cpuBefore);
		cpuSamples.push((cpu.user + cpu.system) / 1000);
		if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
	}
	return { summary: summarize(samples), cpuMedian: summarize(cpuSamples).median };
}

async function benchDatabase(label: string, database: Database): Promise<CaseResult[]> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	try {
		const person = await signUp(server, PERSON_EMAIL);
		const other = await signUp(server, "someone-else@example.com");
		const admin = await signUpAdministrator(server);

		const seedStarted = performance.now();
		await seedHistory(database, person.userId, ROWS);
		await seedHistory(database, other.userId, OTHER_ROWS);
		const isVacuumed = VACUUM === undefined ? database.kind === "postgres" : VACUUM === "1";
		let maintenance = "nothing";
		if (isVacuumed) {
			await database.pool.query("vacuum analyze generations, generation_search");
			maintenance = "VACUUM ANALYZE";
		} else if (IS_ANALYZED) {
			// What the server's own check does within minutes of a change this size (PGlite has no
			// autovacuum; db/embedded-statistics.ts).
			await refreshStatistics(database);
			maintenance = "the server's statistics refresh (ANALYZE)";
		}
		console.log(
			`[${label}] seeded (then ${maintenance}) ${ROWS} + ${OTHER_ROWS} generations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
		);

		const countMatches = async (where: string, userId?: string): Promise<number> => {
			const result = await database.pool.query<{ count: string }>(
				`select count(*) from generations where (${where})${userId ? " and user_id = $1" : ""}`,
				userId ? [userId] : [],
			);
			return Number(result.rows[0]?.count ?? 0);
		};
		const base = `/api/generations?limit=${PAGE_SIZE}`;
		const firstUrl = base;
		const deepCursor = await cursorAtDepth(server, person.cookie, DEPTH);
		const deepUrl = `${firstUrl}&cursor=${deepCursor}`;
		const allRows = ROWS + OTHER_ROWS;
		const adminDeepCursor = await cursorAtDepth(server, admin.cookie, DEPTH);
		const adminDeepUrl = `${firstUrl}&cursor=${adminDeepCursor}`;
		const wide = encodeURIComponent("--ar 16:9");
		const searchDeepCursor = await cursorAtDepth(server, person.cookie, 20, "&q=light");

		type Case = {
			name: string;
			cookie: string;
			url: string;
			total: number | undefined;
			targetMs: number;
			items?: number;
		};
		const p = person.userId;
		const cases: Case[] = [
			{
				name: "person, first page",
				cookie: person.cookie,
				url: firstUrl,
				total: ROWS,
				targetMs: PAGE_TARGET_MS,
			},
			{
				name: `person, page ${DEPTH + 1}`,
				cookie: person.cookie,
				url: deepUrl,
				total: ROWS,
				targetMs: PAGE_TARGET_MS,
			},
			{
				name: "admin, first page",
				cookie: admin.cookie,
				url: firstUrl,
				total: allRows,
				targetMs: PAGE_TARGET_MS,
			},
			{
				name: `admin, page ${DEPTH + 1}`,
				cookie: admin.cookie,
				url: adminDeepUrl,
				total: allRows,
				targetMs: PAGE_TARGET_MS,
			},
			{
				name: 'person, search "lighthouse" (1 in 20 match)',
				cookie: person.cookie,
				url: `${base}&q=lighthouse`,
				total: await countMatches("prompt ilike '%lighthouse%'", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'person, search "light" (word part, about half match)',
				cookie: person.cookie,
				url: `${base}&q=light`,
				total: await countMatches("prompt ilike '%light%'", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'person, search "light", page 21',
				cookie: person.cookie,
				url: `${base}&q=light&cursor=${searchDeepCursor}`,
				total: await countMatches("prompt ilike '%light%'", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'person, search "zebra" (nothing matches)',
				cookie: person.cookie,
				url: `${base}&q=zebra`,
				total: 0,
				items: 0,
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'person, search "a" (one letter, every row matches)',
				cookie: person.cookie,
				url: `${base}&q=a`,
				total: await countMatches("prompt ilike '%a%'", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "person, ratio 16:9",
				cookie: person.cookie,
				url: `${base}&ratio=${wide}`,
				total: await countMatches("aspect_ratio = '--ar 16:9'", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "person, favourites (1 in 20)",
				cookie: person.cookie,
				url: `${base}&favorites=true`,
				total: await countMatches("is_favorite", p),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'person, "light" + ratio 16:9 + favourites',
				cookie: person.cookie,
				url: `${base}&q=light&ratio=${wide}&favorites=true`,
				total: await countMatches(
					"prompt ilike '%light%' and aspect_ratio = '--ar 16:9' and is_favorite",
					p,
				),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'admin, search "lighthouse"',
				cookie: admin.cookie,
				url: `${base}&q=lighthouse`,
				total: await countMatches("prompt ilike '%lighthouse%'"),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'admin, search "light"',
				cookie: admin.cookie,
				url: `${base}&q=light`,
				total: await countMatches("prompt ilike '%light%'"),
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "admin, one person (owner=e-mail)",
				cookie: admin.cookie,
				url: `${base}&owner=${encodeURIComponent(PERSON_EMAIL)}`,
				total: ROWS,
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "admin, ratio 16:9",
				cookie: admin.cookie,
				url: `${base}&ratio=${wide}`,
				total: await countMatches("aspect_ratio = '--ar 16:9'"),
				targetMs: SEARCH_TARGET_MS,
			},
		];
		const results: CaseResult[] = [];
		for (const entry of cases) {
			const { summary, cpuMedian } = await timeRequests(server, entry.cookie, entry.url, {
				items: entry.items ?? Math.min(PAGE_SIZE, entry.total ?? PAGE_SIZE),
				total: entry.total,
			});
			results.push({
				database: label,
				name: entry.name,
				summary,
				cpuMedian,
				targetMs: entry.targetMs,
			});
			console.log(
				`[${label}] ${entry.name}: median ${formatMs(summary.median)} (CPU ${formatMs(cpuMedian)})`,
			);
		}
		for (const part of await timeParts(server, person.cookie, person.userId)) {
			results.push({ database: label, name: part.name, summary: part.summary });
		}
		return results;
	} finally {
		await server.close();
	}
}

async function main(): Promise<void> {
	console.log(
		`History page benchmark: GET /api/generations?limit=${PAGE_SIZE}, plain, searched and filtered, through app.request (session lookup + page query + counts + JSON), ` +
			`${ROWS} generations of the person, ${OTHER_ROWS} of another; ${WARMUP} warm-ups, ${ITERATIONS} timed requests per case.`,
	);
	console.log(`Machine: ${describeMachine()}`);
	const results: CaseResult[] = [];

	results.push(...(await benchDatabase("PGlite (in-memory)", await openBenchPglite())));

	const postgres = DATABASES.includes("postgres") ? await startBenchPostgres() : undefined;
	if (postgres) {
		try {
			console.log(`PostgreSQL: ${postgres.source}`);
			results.push(...(await benchDatabase("PostgreSQL", await postgres.openDatabase())));
		} finally {
			await postgres.stop();
		}
	}

	console.log(`\nLoad average at the end: ${formatLoadAverage()}`);
	printTable(
		["database", "case", "median", "p95", "max", "CPU median", "target (median)"],
		results.map(({ database, name, summary, cpuMedian, targetMs }) => [
			database,
			name,
			formatMs(summary.median),
			formatMs(summary.p95),
			formatMs(summary.max),
			cpuMedian === undefined ? "" : formatMs(cpuMedian),
			targetMs === undefined
				? ""
				: `< ${targetMs} ms ${summary.median < targetMs ? "met" : "MISSED"}`,
		]),
		2,
	);
	if (!postgres && DATABASES.includes("postgres"))
		console.log("\n!! PostgreSQL rows are missing: PostgreSQL was SKIPPED (see above).");
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
