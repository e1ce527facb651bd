// Benchmark of the administrator's People page: server-side time of GET /api/admin/people (the
// first page of 50, with its total) over 10,000 people with generations, default sort, other
// sorts and an e-mail search, on embedded PGlite and on PostgreSQL. Target: under 50 ms median.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs people
// Optional: ITERATIONS=100 WARMUP=10 PEOPLE=10000 GENERATIONS_PER_PERSON=5 DATABASES=pglite,postgres
//   BENCH_DATABASE_URL=postgres://...

import type { Database } from "../src/server/db/database";
import { refreshStatistics } from "../src/server/db/embedded-statistics";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	type BenchServer,
	createBenchServer,
	describeMachine,
	forEachBenchDatabase,
	formatMs,
	printTable,
	type Summary,
	signUpAdministrator,
	summarize,
} from "./bench-support";

const ITERATIONS = Number(process.env.ITERATIONS ?? 100);
const WARMUP = Number(process.env.WARMUP ?? 10);
const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const GENERATIONS_PER_PERSON = Number(process.env.GENERATIONS_PER_PERSON ?? 5);
const DATABASES = (process.env.DATABASES ?? "pglite,postgres").split(",");
const TARGET_MS = 50;
const BATCH = 1_000;

// People signed up over the last year, each with a session used some time since; e-mails
// person-00001@example.com and on; every 50th disabled, every 10th with a quota of their own.
const SEED_PEOPLE_SQL = `
insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
select
	'bench-person-' || g,
	'person ' || g,
	'person-' || lpad(g::text, 5, '0') || '@example.com',
	true,
	now() - random() * interval '365 days',
	now()
from generate_series($1::int, $2::int) as g
`;

const SEED_SESSIONS_SQL = `
insert into "session" (id, token, "userId", "expiresAt", "createdAt", "updatedAt")
select
	'bench-session-' || g,
	'bench-token-' || g,
	'bench-person-' || g,
	now() + interval '30 days',
	now() - interval '40 days',
	now() - random() * interval '40 days'
from generate_series($1::int, $2::int) as g
`;

// Each person's generations over the last 60 days, most completed with four images, priced and
// weighed as the app records them; the triggers keep person_usage as they do for the app.
const SEED_GENERATIONS_SQL = `
insert into generations (
	id, user_id, prompt, aspect_ratio, status, provider, model_id, model_label, polling_url, images,
	price_per_image, stored_bytes, created_at, updated_at, completed_at
)
select
	gen_random_uuid(),
	'bench-person-' || p,
	'a lighthouse at dusk',
	'--ar 1:1',
	case when (p + n) % 10 = 0 then 'failed' else 'completed' end,
	'local',
	'local',
	'Offline engine',
	'/api/generations/x/status',
	case when (p + n) % 10 = 0 then '[]'::jsonb else (
		select jsonb_agg(jsonb_build_object('key', 'generations/x/' || i || '.png', 'contentType', 'image/png',
			'width', 1024, 'height', 1024, 'thumbnailKey', 'generations/x/' || i || '-thumb.webp',
			'thumbnailWidth', 384, 'thumbnailHeight', 384, 'bytes', 1500000))
		from generate_series(0, 3) as i
	) end,
	(array[0, 0.04, 0.01, 0.08])[1 + p % 4],
	case when (p + n) % 10 = 0 then null else 6000000 + p end,
	now() - random() * interval '60 days',
	now(),
	now()
from generate_series($1::int, $2::int) as p, generate_series(1, (p % (2 * $3::int)) + 1) as n
`;

const SEED_CONTROLS_SQL = `
update people set disabled_at = case when right(user_id, 2) = '00' then now() end, max_active = 5
where user_id like 'bench-person-%0'
`;

async function seedPeople(database: Database): Promise<void> {
	for (let first = 1; first <= PEOPLE; first += BATCH) {
		const last = Math.min(PEOPLE, first + BATCH - 1);
		await database.pool.query(SEED_PEOPLE_SQL, [first, last]);
		await database.pool.query(SEED_SESSIONS_SQL, [first, last]);
		await database.pool.query(SEED_GENERATIONS_SQL, [first, last, GENERATIONS_PER_PERSON]);
	}
	await database.pool.query(SEED_CONTROLS_SQL);
}

type Page = { items: unknown[]; total: number };

/** Times `url` (request to body read) through the app, after warm-ups. */
async function timeRequests(
	server: BenchServer,
	cookie: string,
	url: string,
	expectedTotal: number,
): Promise<Summary> {
	const check = await server.app.request(url, { headers: { cookie } });
	if (check.status !== 200) throw new Error(`GET ${url} answered ${check.status}`);
	const body = (await check.json()) as Page;
	if (body.total !== expectedTotal || body.items.length === 0) {
		throw new Error(
			`GET ${url}: ${body.items.length} items of ${body.total}, expected ${expectedTotal}`,
		);
	}
	for (let run = 0; run < WARMUP; run++) {
		await (await server.app.request(url, { headers: { cookie } })).text();
	}
	const samples: number[] = [];
	for (let run = 0; run < ITERATIONS; run++) {
		const started = performance.now();
		const response = await server.app.request(url, { headers: { cookie } });
		await response.text();
		samples.push(performance.now() - started);
	}
	return summarize(samples);
}

async function benchDatabase(
	label: string,
	database: Database,
): Promise<Array<{ database: string; name: string; summary: Summary }>> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	try {
		const admin = await signUpAdministrator(server);
		const seedStarted = performance.now();
		await seedPeople(database);
		if (database.kind === "postgres") await database.pool.query("vacuum analyze");
		else await refreshStatistics(database);
		const generations = await database.pool.query<{ count: string }>(
			"select count(*) from generations",
		);
		console.log(
			`[${label}] seeded ${PEOPLE} people, ${generations.rows[0]?.count} generations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
		);
		const everyone = PEOPLE + 1;
		const cases = [
			{ name: "first page, default sort (e-mail)", url: "", total: everyone },
			{
				name: "first page, signed up, newest first",
				url: "sort=signedUp&order=desc",
				total: everyone,
			},
			{
				name: "first page, last active, latest first",
				url: "sort=lastActive&order=desc",
				total: everyone,
			},
			{ name: "first page, spend, highest first", url: "sort=spend&order=desc", total: everyone },
			{
				name: "first page, this month, most first",
				url: "sort=generationsThisMonth&order=desc",
				total: everyone,
			},
			{
				name: "first page, status, disabled first",
				url: "sort=status&order=desc",
				total: everyone,
			},
			{ name: 'search "person-0123" (10 match)', url: "search=person-0123", total: 10 },
			{ name: 'search "example" (everyone matches)', url: "search=example", total: everyone },
			{ name: "page 100, default sort", url: "page=100", total: everyone },
		];
		const results = [];
		for (const entry of cases) {
			const summary = await timeRequests(
				server,
				admin.cookie,
				`/api/admin/people?${entry.url}`,
				entry.total,
			);
			results.push({ database: label, name: entry.name, summary });
		}
		return results;
	} finally {
		await server.close();
	}
}

console.log(
	`People page benchmark: ${PEOPLE} people, about ${GENERATIONS_PER_PERSON} generations each; ${ITERATIONS} timed requests after ${WARMUP} warm-ups; ${describeMachine()}`,
);
const results: Array<{ database: string; name: string; summary: Summary }> = [];
await forEachBenchDatabase(
	async ({ label, open }) => {
		results.push(...(await benchDatabase(label, await open())));
	},
	{ kinds: DATABASES, labels: { pglite: "PGlite" } },
);
printTable(
	["database", "case", "median", "p95", "max", `target < ${TARGET_MS} ms`],
	results.map((result) => [
		result.database,
		result.name,
		formatMs(result.summary.median),
		formatMs(result.summary.p95),
		formatMs(result.summary.max),
		result.summary.median < TARGET_MS ? "ok" : "MISSED",
	]),
	2,
);
