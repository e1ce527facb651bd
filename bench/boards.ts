// Benchmark of a board's page and a smart board's, beside the history's own: server-side time of GET /api/generations?board=
// for a person with 10,000 completed generations (plus 2,000 of someone else's), on embedded PGlite
// and on PostgreSQL, within the history's budgets (bench/history.ts): under 10 ms median for a
// plain page, under 15 ms searched or filtered. And GET /api/boards with those boards on it.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs boards
// Optional: ITERATIONS=200 WARMUP=20 ROWS=10000 OTHER_ROWS=2000 DATABASES=pglite,postgres
//   BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { refreshStatistics } from "../src/server/db/embedded-statistics";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	BENCH_BASE_URL,
	type BenchServer,
	createBenchServer,
	describeMachine,
	forEachBenchDatabase,
	formatMs,
	printTable,
	type Summary,
	signUp,
	summarize,
} from "./bench-support";
import { seedHistory } from "./history-seed";

const ITERATIONS = Number(process.env.ITERATIONS ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 20);
const ROWS = Number(process.env.ROWS ?? 10_000);
const OTHER_ROWS = Number(process.env.OTHER_ROWS ?? 2_000);
const DATABASES = (process.env.DATABASES ?? "pglite,postgres").split(",");
const PAGE_SIZE = 24;
const PAGE_TARGET_MS = 10;
const SEARCH_TARGET_MS = 15;

type CaseResult = { database: string; name: string; summary: Summary; targetMs?: number };
type Page = { items: unknown[]; nextCursor: string | null; total: number };

async function request(server: BenchServer, cookie: string, url: string, init: RequestInit = {}) {
	const headers = new Headers(init.headers);
	headers.set("cookie", cookie);
	headers.set("origin", BENCH_BASE_URL);
	if (init.body) headers.set("content-type", "application/json");
	const response = await server.app.request(url, { ...init, headers });
	const text = await response.text();
	if (!response.ok)
		throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${text}`);
	return JSON.parse(text) as unknown;
}

async function timeUrl(server: BenchServer, cookie: string, url: string): Promise<Summary> {
	for (let run = 0; run < WARMUP; run++) await request(server, cookie, url);
	const samples: number[] = [];
	for (let run = 0; run < ITERATIONS; run++) {
		const started = performance.now();
		await request(server, cookie, url);
		samples.push(performance.now() - started);
	}
	return summarize(samples);
}

/** The cursor `depth` pages into `url`'s listing, as the infinite scroll reaches it. */
async function cursorAt(server: BenchServer, cookie: string, url: string, depth: number) {
	let cursor: string | null = null;
	for (let page = 0; page < depth; page++) {
		const body = (await request(
			server,
			cookie,
			`${url}${cursor ? `&cursor=${cursor}` : ""}`,
		)) as Page;
		if (!body.nextCursor) throw new Error(`${url} ended after ${page + 1} pages`);
		cursor = body.nextCursor;
	}
	return cursor ?? "";
}

async function benchDatabase(label: string, database: Database): Promise<CaseResult[]> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	try {
		const person = await signUp(server, "boards-person@example.com");
		const other = await signUp(server, "someone-else@example.com");
		await seedHistory(database, person.userId, ROWS);
		await seedHistory(database, other.userId, OTHER_ROWS);

		const makeBoard = async (body: unknown) =>
			(
				(await request(server, person.cookie, "/api/boards", {
					method: "POST",
					body: JSON.stringify(body),
				})) as { id: string }
			).id;
		// A board of every tenth generation (1,000), and a sparse one of every two-hundredth (50),
		// filled as Add to board does, 200 ids at a time.
		const dense = await makeBoard({ name: "Every tenth" });
		const sparse = await makeBoard({ name: "Every two-hundredth", visibility: "shared" });
		const { rows } = await database.pool.query<{ id: string; n: string }>(
			"select id, row_number() over (order by created_at desc, id desc) as n from generations where user_id = $1",
			[person.userId],
		);
		const fill = async (boardId: string, every: number) => {
			const ids = rows.filter((row) => Number(row.n) % every === 0).map((row) => row.id);
			for (let first = 0; first < ids.length; first += 200) {
				await request(server, person.cookie, `/api/boards/${boardId}/generations`, {
					method: "POST",
					body: JSON.stringify({ ids: ids.slice(first, first + 200) }),
				});
			}
		};
		await fill(dense, 10);
		await fill(sparse, 200);
		const smartFavourites = await makeBoard({
			name: "Starred lights",
			query: { q: "light", favorites: true },
		});
		const smartSearch = await makeBoard({ name: "Lighthouses", query: { q: "lighthouse" } });
		if (database.kind === "postgres") {
			await database.pool.query("vacuum analyze generations, generation_search, board_generations");
		} else {
			await refreshStatistics(database);
		}

		const base = `/api/generations?limit=${PAGE_SIZE}`;
		const denseUrl = `${base}&board=${dense}`;
		// The history's own pages first, measured in the same run: under a shared machine's load, the
		// board's figures are read beside them.
		const cases: Array<{ name: string; url: string; targetMs: number; cookie?: string }> = [
			{ name: "history, first page", url: base, targetMs: PAGE_TARGET_MS },
			{ name: 'history, search "light"', url: `${base}&q=light`, targetMs: SEARCH_TARGET_MS },
			{ name: "board of 1,000, first page", url: denseUrl, targetMs: PAGE_TARGET_MS },
			{
				name: "board of 1,000, page 21",
				url: `${denseUrl}&cursor=${await cursorAt(server, person.cookie, denseUrl, 20)}`,
				targetMs: PAGE_TARGET_MS,
			},
			{
				name: 'board of 1,000, search "light"',
				url: `${denseUrl}&q=light`,
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "board of 1,000, favourites",
				url: `${denseUrl}&favorites=true`,
				targetMs: SEARCH_TARGET_MS,
			},
			{ name: "board of 50, first page", url: `${base}&board=${sparse}`, targetMs: PAGE_TARGET_MS },
			{
				name: "board of 50, seen shared by another",
				url: `${base}&board=${sparse}`,
				targetMs: PAGE_TARGET_MS,
				cookie: other.cookie,
			},
			{
				name: 'smart board "light" + favourites',
				url: `${base}&board=${smartFavourites}`,
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: 'smart board "lighthouse"',
				url: `${base}&board=${smartSearch}`,
				targetMs: SEARCH_TARGET_MS,
			},
			{
				name: "GET /api/boards (4 boards, 2 smart)",
				url: "/api/boards",
				targetMs: SEARCH_TARGET_MS,
			},
		];
		const results: CaseResult[] = [];
		for (const entry of cases) {
			const summary = await timeUrl(server, entry.cookie ?? person.cookie, entry.url);
			results.push({ database: label, name: entry.name, summary, targetMs: entry.targetMs });
			console.log(`[${label}] ${entry.name}: median ${formatMs(summary.median)}`);
		}
		return results;
	} finally {
		await server.close();
	}
}

async function main(): Promise<void> {
	console.log(
		`Boards benchmark: a board's page and a smart board's through app.request, ${ROWS} generations of the person, ${OTHER_ROWS} of another; ${WARMUP} warm-ups, ${ITERATIONS} timed requests per case.`,
	);
	console.log(`Machine: ${describeMachine()}`);
	const results: CaseResult[] = [];
	await forEachBenchDatabase(
		async ({ label, open }) => {
			results.push(...(await benchDatabase(label, await open())));
		},
		{ kinds: DATABASES },
	);
	console.log("");
	printTable(
		["database", "case", "median", "p95", "max", "target (median)"],
		results.map(({ database, name, summary, targetMs }) => [
			database,
			name,
			formatMs(summary.median),
			formatMs(summary.p95),
			formatMs(summary.max),
			targetMs === undefined
				? ""
				: `< ${targetMs} ms ${summary.median < targetMs ? "met" : "MISSED"}`,
		]),
		2,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
