// Benchmark of the history page: server-side time of GET /api/generations for a person with
// 10,000 completed generations (plus 2,000 of someone else's), first page and ~200 pages deep,
// on embedded PGlite and on PostgreSQL. Target: under 10 ms median.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs history
// Optional: ITERATIONS=200 WARMUP=20 ROWS=10000 OTHER_ROWS=2000 DEPTH=200 VACUUM=0|1 BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import {
	countHistory,
	selectGenerationPage,
} from "../src/server/generations/generation-repository";
import { listGenerations } from "../src/server/generations/generation-service";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	BENCH_ADMIN_EMAIL,
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

const ITERATIONS = Number(process.env.ITERATIONS ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 20);
const ROWS = Number(process.env.ROWS ?? 10_000);
const OTHER_ROWS = Number(process.env.OTHER_ROWS ?? 2_000);
const DEPTH = Number(process.env.DEPTH ?? 200);
// After seeding: PostgreSQL gets VACUUM ANALYZE, which its autovacuum would soon do by itself (and
// might otherwise do in the middle of the timings); PGlite has no autovacuum, so it only gets
// ANALYZE, as a real embedded database would stay. VACUUM=1 / VACUUM=0 force one way for both.
const VACUUM = process.env.VACUUM;
const PAGE_SIZE = 24;
const BATCH = 1_000;
const TARGET_MS = 10;

type CaseResult = { database: string; name: string; summary: Summary };

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
			name: "part: page query (selectGenerationPage)",
			summary: await timeCalls(() =>
				selectGenerationPage(db, {
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
			name: "part: listGenerations (service, no HTTP/session)",
			summary: await timeCalls(() =>
				listGenerations(
					{ database: server.database },
					{ id: userId, email: "history-person@example.com", isAdmin: false },
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

// One batch of completed generations for one person: created over the last 60 days at millisecond
// precision (as the app stores them), four stored images each, shaped like StoredImage.
const SEED_SQL = `
with s as materialized (
	select
		gen_random_uuid() as id,
		g,
		date_trunc('milliseconds', now() - random() * interval '60 days') as created_at
	from generate_series($2::int, $3::int) as g
)
insert into generations (
	id, user_id, prompt, aspect_ratio, status, provider, api_id, polling_url, images, error,
	attempts, created_at, started_at, completed_at, updated_at
)
select
	s.id,
	$1,
	'Seeded prompt ' || s.g || ': a quiet forest lake at dawn, volumetric light, mist over the water, highly detailed, 35mm photograph',
	(array['--ar 1:1', '--ar 3:2', '--ar 16:9', '--ar 21:9', '--ar 2:3', '--ar 9:16'])[1 + s.g % 6],
	'completed',
	'local',
	'local_' || gen_random_uuid(),
	'/api/generations/' || s.id || '/status',
	(
		select jsonb_agg(
			jsonb_build_object(
				'key', 'generations/' || s.id || '/' || i || '.png',
				'contentType', 'image/png',
				'width', 1024,
				'height', 1024,
				'thumbnailKey', 'generations/' || s.id || '/' || i || '-thumb.webp',
				'thumbnailWidth', 384,
				'thumbnailHeight', 384
			)
			order by i
		)
		from generate_series(0, 3) as i
	),
	null,
	1,
	s.created_at,
	s.created_at + interval '1 second',
	s.created_at + interval '12.345 seconds',
	s.created_at + interval '12.345 seconds'
from s
`;

async function seed(database: Database, userId: string, count: number): Promise<void> {
	for (let first = 1; first <= count; first += BATCH) {
		const last = Math.min(count, first + BATCH - 1);
		await database.pool.query(SEED_SQL, [userId, first, last]);
	}
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
async function cursorAtDepth(server: BenchServer, cookie: string, depth: number): Promise<string> {
	let cursor: string | null = null;
	for (let page = 0; page < depth; page++) {
		const url: string = `/api/generations?limit=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ""}`;
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
	expect: { items: number; total: number },
): Promise<Summary> {
	const check = await getPage(server, cookie, url);
	if (check.items.length !== expect.items || check.total !== expect.total) {
		throw new Error(
			`GET ${url}: ${check.items.length} items of ${check.total}, expected ${expect.items} of ${expect.total}`,
		);
	}
	for (let run = 0; run < WARMUP; run++) await getPage(server, cookie, url);
	const samples: number[] = [];
	for (let run = 0; run < ITERATIONS; run++) {
		const started = performance.now();
		const response = await server.app.request(url, { headers: { cookie } });
		await response.text();
		samples.push(performance.now() - started);
		if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
	}
	return summarize(samples);
}

async function benchDatabase(label: string, database: Database): Promise<CaseResult[]> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		settings: createBenchSettings(),
		isWorkerEnabled: false,
	});
	try {
		const person = await signUp(server, "history-person@example.com");
		const other = await signUp(server, "someone-else@example.com");
		const admin = await signUp(server, BENCH_ADMIN_EMAIL);

		const seedStarted = performance.now();
		await seed(database, person.userId, ROWS);
		await seed(database, other.userId, OTHER_ROWS);
		const isVacuumed = VACUUM === undefined ? database.kind === "postgres" : VACUUM === "1";
		await database.pool.query(isVacuumed ? "vacuum analyze generations" : "analyze generations");
		console.log(
			`[${label}] seeded (then ${isVacuumed ? "VACUUM ANALYZE" : "ANALYZE"}) ${ROWS} + ${OTHER_ROWS} generations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
		);

		const firstUrl = `/api/generations?limit=${PAGE_SIZE}`;
		const deepCursor = await cursorAtDepth(server, person.cookie, DEPTH);
		const deepUrl = `${firstUrl}&cursor=${deepCursor}`;
		const allRows = ROWS + OTHER_ROWS;
		const adminDeepCursor = await cursorAtDepth(server, admin.cookie, DEPTH);
		const adminDeepUrl = `${firstUrl}&cursor=${adminDeepCursor}`;

		const cases: Array<{ name: string; cookie: string; url: string; total: number }> = [
			{ name: "person, first page", cookie: person.cookie, url: firstUrl, total: ROWS },
			{ name: `person, page ${DEPTH + 1}`, cookie: person.cookie, url: deepUrl, total: ROWS },
			{ name: "admin, first page", cookie: admin.cookie, url: firstUrl, total: allRows },
			{ name: `admin, page ${DEPTH + 1}`, cookie: admin.cookie, url: adminDeepUrl, total: allRows },
		];
		const results: CaseResult[] = [];
		for (const entry of cases) {
			const summary = await timeRequests(server, entry.cookie, entry.url, {
				items: PAGE_SIZE,
				total: entry.total,
			});
			results.push({ database: label, name: entry.name, summary });
			console.log(`[${label}] ${entry.name}: median ${formatMs(summary.median)}`);
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
		`History page benchmark: GET /api/generations?limit=${PAGE_SIZE} through app.request (session lookup + page query + counts + JSON), ` +
			`${ROWS} generations of the person, ${OTHER_ROWS} of another; ${WARMUP} warm-ups, ${ITERATIONS} timed requests per case.`,
	);
	const results: CaseResult[] = [];

	results.push(...(await benchDatabase("PGlite (in-memory)", await openBenchPglite())));

	const postgres = await startBenchPostgres();
	if (postgres) {
		try {
			console.log(`PostgreSQL: ${postgres.source}`);
			results.push(...(await benchDatabase("PostgreSQL", await postgres.openDatabase())));
		} finally {
			await postgres.stop();
		}
	}

	console.log("");
	printTable(
		["database", "case", "median", "p95", "max", `target < ${TARGET_MS} ms median`],
		results.map(({ database, name, summary }) => [
			database,
			name,
			formatMs(summary.median),
			formatMs(summary.p95),
			formatMs(summary.max),
			name.startsWith("part:") ? "" : summary.median < TARGET_MS ? "met" : "MISSED",
		]),
		2,
	);
	if (!postgres)
		console.log("\n!! PostgreSQL rows are missing: PostgreSQL was SKIPPED (see above).");
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
