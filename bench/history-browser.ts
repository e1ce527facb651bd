// Benchmark of the history screen in a real browser: Debian's Chromium loads /generations from the
// real server (HTTP on 127.0.0.1, the built web app, stored WebP thumbnails) for a person with
// 10,000 generations, and we measure what the person would notice:
//   - time from navigation to the first cards visible (target: under 1 s),
//   - bytes transferred for the first screen, thumbnails included (target: under 1 MB),
//   - frame timing and long tasks while scrolling through 2,000 cards (target: no long task > 50 ms).
// Needs `npm run build` first (it serves dist/web, or the build WEB_DIST names). Run from the
// repository root (bench/README.md):
//   node bench/run.mjs history-browser
// Optional: ROWS=10000 SCROLL_CARDS=2000 SCROLL_STEP=120 COLD_RUNS=5 VARIANTS=24 FILE_ROWS=2500
//   VIEWPORT=1280x800 CHROMIUM_PATH=/usr/bin/chromium

import { randomUUID } from "node:crypto";
import { access, link, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { type Browser, chromium, type Page } from "@playwright/test";
import type { Database } from "../src/server/db/database";
import type { StoredImage } from "../src/server/db/schema";
import { storeGenerationImage } from "../src/server/generations/run/store-images";
import { loadStaticSite } from "../src/server/http/static-site";
import { createSilentLogger } from "../src/server/logging/logger";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { renderImages } from "../src/server/providers/local/render";
import { assembleServer } from "../src/server/server";
import { createLocalStorage } from "../src/server/storage/local-storage";
import type { Storage } from "../src/server/storage/storage";
import { insertCompletedRowsSql } from "../src/server/testing/generation-row";
import { findFreePort } from "../src/server/testing/postgres-cluster";
import { ASPECT_RATIOS, type AspectRatio } from "../src/shared/generations/aspect-ratios";
import {
	BENCH_BASE_URL,
	CHROMIUM_ARGS,
	CHROMIUM_PATH,
	createBenchSettings,
	describeMachine,
	formatMs,
	openBenchPglite,
	printTable,
	signUp,
	summarize,
} from "./bench-support";

const ROWS = Number(process.env.ROWS ?? 10_000);
const SCROLL_CARDS = Number(process.env.SCROLL_CARDS ?? 2_000);
const SCROLL_STEP = Number(process.env.SCROLL_STEP ?? 120);
const SCROLL_TIMEOUT_MS = Number(process.env.SCROLL_TIMEOUT_MS ?? 300_000);
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 5);
const VARIANTS = Number(process.env.VARIANTS ?? 24);
// Rows with thumbnail files of their own (the newest, which the scroll reaches, as hard links to
// the rendered variants); older rows point at those rows' files, so every key leads to a real file
// without writing 80,000 of them.
const FILE_ROWS = Math.min(ROWS, Math.max(VARIANTS, Number(process.env.FILE_ROWS ?? 2_500)));
const [VIEWPORT_WIDTH = 1280, VIEWPORT_HEIGHT = 800] = (process.env.VIEWPORT ?? "1280x800")
	.split("x")
	.map(Number);
// The scroll is always traced lightly (top-level tasks only) to learn each main-thread task's CPU
// time beside its wall time: on a shared machine a task also "takes long" while the page waits for
// a core. TRACE=<file> records a detailed trace there instead and prints where the time went.
const TRACE = process.env.TRACE;
// WATERFALL=1 prints when each script, stylesheet and API request of every cold load started and ended.
const WATERFALL = process.env.WATERFALL === "1";
const SEED_BATCH = 1_000;
const NETWORK_QUIET_MS = 1_000;
const FIRST_CARDS_TARGET_MS = 1_000;
const FIRST_SCREEN_TARGET_BYTES = 1_000_000;
const LONG_TASK_TARGET_MS = 50;
const PROMPTS = [
	"An anime boy with blue hair --niji 6",
	"A woman soldier in a black suit, portrait photoshoot",
	"An hourglass on a study desk, steampunk, intricate details, 8k",
	"A quiet forest lake at dawn, volumetric light, mist over the water",
	"Neon cyberpunk city at night, rain on the streets",
	"Galaxy nebula with a ringed planet, deep space",
	"Desert dunes under a full moon, long shadows",
	"A lighthouse on a cliff in a storm, crashing waves",
];

type Variant = { aspectRatio: AspectRatio; prompt: string; images: StoredImage[] };

function folderOf(key: string): string {
	return key.slice(0, key.lastIndexOf("/"));
}

function fileOf(key: string): string {
	return key.slice(key.lastIndexOf("/") + 1);
}

/** Renders the pool of image sets with the offline engine, stored in the folders of rows 0..VARIANTS-1. */
async function renderVariants(storage: Storage, ids: readonly string[]): Promise<Variant[]> {
	const variants: Variant[] = [];
	for (let index = 0; index < VARIANTS; index++) {
		const id = ids[index];
		if (!id) throw new Error("fewer rows than variants");
		const aspectRatio = ASPECT_RATIOS[index % ASPECT_RATIOS.length]?.value ?? "--ar 1:1";
		const prompt = PROMPTS[index % PROMPTS.length] ?? "A quiet forest lake at dawn";
		const rendered = await renderImages({ prompt: `${prompt} ${index}`, aspectRatio, count: 4 });
		const images: StoredImage[] = [];
		for (const [imageIndex, image] of rendered.entries()) {
			images.push(
				await storeGenerationImage(storage, `generations/${id}/`, imageIndex, image.data),
			);
		}
		variants.push({ aspectRatio, prompt, images });
	}
	return variants;
}

/** The folder whose files row `index` points at: its own for the newest FILE_ROWS rows. */
function folderRow(index: number): number {
	return index < FILE_ROWS ? index : index % FILE_ROWS;
}

function variantOf(variants: readonly Variant[], index: number): Variant {
	const variant = variants[folderRow(index) % VARIANTS];
	if (!variant) throw new Error(`no variant for row ${index}`);
	return variant;
}

function imagesOf(variant: Variant, folderId: string): StoredImage[] {
	return variant.images.map((image) => ({
		...image,
		key: `generations/${folderId}/${fileOf(image.key)}`,
		thumbnailKey: `generations/${folderId}/${fileOf(image.thumbnailKey)}`,
	}));
}

/** Gives rows VARIANTS..FILE_ROWS-1 files of their own: hard links to their variant's files. */
async function linkRowFiles(
	imagesDir: string,
	ids: readonly string[],
	variants: readonly Variant[],
): Promise<void> {
	for (let index = VARIANTS; index < FILE_ROWS; index++) {
		const id = ids[index];
		if (!id) continue;
		const variant = variantOf(variants, index);
		await mkdir(path.join(imagesDir, "generations", id), { recursive: true });
		await Promise.all(
			variant.images.flatMap((image) =>
				[image.key, image.thumbnailKey].map((key) =>
					link(
						path.join(imagesDir, ...folderOf(key).split("/"), fileOf(key)),
						path.join(imagesDir, "generations", id, fileOf(key)),
					),
				),
			),
		);
	}
}

// The rows' one shape is the test kit's completed row (src/server/testing/generation-row.ts, as
// bench/history-seed.ts seeds it): only what this benchmark varies is given here.
const SEED_SQL = insertCompletedRowsSql(
	"jsonb_to_recordset($2::jsonb) as t(id uuid, prompt text, aspect_ratio text, images jsonb, created_at timestamptz)",
	{
		id: "t.id",
		user_id: "$1",
		prompt: "t.prompt",
		aspect_ratio: "t.aspect_ratio",
		api_id: "'local_' || t.id",
		polling_url: "'/api/generations/' || t.id || '/status'",
		images: "t.images",
		created_at: "t.created_at",
		started_at: "t.created_at + interval '1 second'",
		completed_at: "t.created_at + interval '4 seconds'",
		updated_at: "t.created_at + interval '4 seconds'",
	},
);

/** Seeds ROWS completed generations newest first, spread over the last 60 days. */
async function seedRows(
	database: Database,
	userId: string,
	ids: readonly string[],
	variants: readonly Variant[],
): Promise<void> {
	const now = Date.now();
	const spacingMs = (60 * 24 * 60 * 60 * 1000) / ROWS;
	for (let first = 0; first < ROWS; first += SEED_BATCH) {
		const rows = [];
		for (let index = first; index < Math.min(ROWS, first + SEED_BATCH); index++) {
			const id = ids[index];
			const folderId = ids[folderRow(index)];
			if (!id || !folderId) continue;
			const variant = variantOf(variants, index);
			rows.push({
				id,
				prompt: `${variant.prompt}, variation ${ROWS - index}`,
				aspect_ratio: variant.aspectRatio,
				images: imagesOf(variant, folderId),
				created_at: new Date(now - 60_000 - index * spacingMs).toISOString(),
			});
		}
		await database.pool.query(SEED_SQL, [userId, JSON.stringify(rows)]);
	}
	await database.pool.query("analyze generations");
}

type FirstScreen = {
	firstCardsMs: number;
	viewportThumbnailsMs: number;
	largestContentfulPaintMs: number;
	bytes: number;
	requests: number;
	bytesByType: Record<string, number>;
	imageRequests: number;
	foreignRequests: number;
	cardsInDom: number;
};

// Runs in the page before any of its scripts: notes when the first card is in the DOM and, one
// frame later, painted; and the largest contentful paint.
const PAGE_PROBE = `
window.__bench = { cardsInserted: null, cardsPainted: null, lcp: 0 };
new MutationObserver((_, observer) => {
	if (document.querySelector("article[data-generation-id]")) {
		observer.disconnect();
		window.__bench.cardsInserted = performance.now();
		requestAnimationFrame(() => {
			const channel = new MessageChannel();
			channel.port1.onmessage = () => { window.__bench.cardsPainted = performance.now(); };
			channel.port2.postMessage(null);
		});
	}
}).observe(document, { subtree: true, childList: true });
new PerformanceObserver((list) => {
	for (const entry of list.getEntries()) window.__bench.lcp = entry.startTime;
}).observe({ type: "largest-contentful-paint", buffered: true });
`;

type BenchWindow = {
	__bench: { cardsInserted: number | null; cardsPainted: number | null; lcp: number };
};

async function openPage(
	browser: Browser,
	baseUrl: string,
	cookies: ReadonlyArray<{ name: string; value: string }>,
) {
	const context = await browser.newContext({
		viewport: { width: VIEWPORT_WIDTH, height: VIEWPORT_HEIGHT },
		deviceScaleFactor: 1,
	});
	await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseUrl })));
	await context.addInitScript(PAGE_PROBE);
	const page = await context.newPage();
	const cdp = await context.newCDPSession(page);
	await cdp.send("Network.enable");
	const network = {
		bytes: 0,
		requests: 0,
		imageRequests: 0,
		foreignRequests: 0,
		lastActivity: performance.now(),
		inFlight: 0,
		bytesByType: {} as Record<string, number>,
		types: new Map<string, string>(),
	};
	cdp.on("Network.requestWillBeSent", (event) => {
		network.inFlight += 1;
		network.lastActivity = performance.now();
		if (!new URL(event.request.url).hostname.startsWith("127.0.0.1")) network.foreignRequests += 1;
	});
	cdp.on("Network.responseReceived", (event) => {
		network.types.set(event.requestId, event.type.toLowerCase());
	});
	cdp.on("Network.loadingFinished", (event) => {
		const type = network.types.get(event.requestId) ?? "other";
		network.inFlight = Math.max(0, network.inFlight - 1);
		network.lastActivity = performance.now();
		network.bytes += event.encodedDataLength;
		network.requests += 1;
		if (type === "image") network.imageRequests += 1;
		network.bytesByType[type] = (network.bytesByType[type] ?? 0) + event.encodedDataLength;
	});
	cdp.on("Network.loadingFailed", () => {
		network.inFlight = Math.max(0, network.inFlight - 1);
		network.lastActivity = performance.now();
	});
	return { context, page, network };
}

async function waitForNetworkQuiet(network: {
	lastActivity: number;
	inFlight: number;
}): Promise<void> {
	const deadline = performance.now() + 30_000;
	while (performance.now() < deadline) {
		if (network.inFlight === 0 && performance.now() - network.lastActivity > NETWORK_QUIET_MS) {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error("the network never went quiet");
}

/** Every thumbnail inside the viewport has loaded; returns when (ms since navigation). */
async function waitForViewportThumbnails(page: Page): Promise<number> {
	const handle = await page.waitForFunction(
		() => {
			const images = Array.from(document.querySelectorAll("article img")).filter((image) => {
				const box = image.getBoundingClientRect();
				return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
			}) as HTMLImageElement[];
			if (images.length === 0 || images.some((image) => !image.complete)) return false;
			return performance.now();
		},
		undefined,
		{ polling: 16, timeout: 30_000 },
	);
	return Number(await handle.jsonValue());
}

async function measureFirstScreen(
	browser: Browser,
	baseUrl: string,
	cookies: ReadonlyArray<{ name: string; value: string }>,
): Promise<FirstScreen> {
	const { context, page, network } = await openPage(browser, baseUrl, cookies);
	try {
		await page.goto(`${baseUrl}/generations`, { waitUntil: "commit" });
		await page.waitForFunction(
			() => (window as unknown as BenchWindow).__bench.cardsPainted !== null,
			undefined,
			{ polling: 16, timeout: 30_000 },
		);
		const viewportThumbnailsMs = await waitForViewportThumbnails(page);
		await waitForNetworkQuiet(network);
		const probe = await page.evaluate(() => ({
			...(window as unknown as BenchWindow).__bench,
			cards: document.querySelectorAll("article[data-generation-id]").length,
		}));
		if (WATERFALL) {
			const entries = await page.evaluate(() =>
				performance
					.getEntriesByType("resource")
					.map((entry) => ({
						name: new URL(entry.name).pathname + new URL(entry.name).search.slice(0, 30),
						start: entry.startTime,
						end: (entry as PerformanceResourceTiming).responseEnd,
					}))
					.filter((entry) => !entry.name.includes("-thumb.")),
			);
			console.log(
				`  waterfall (ms since navigation; thumbnails left out), first card painted at ${probe.cardsPainted?.toFixed(0)}:`,
			);
			for (const entry of entries) {
				console.log(
					`    ${entry.start.toFixed(0).padStart(5)} → ${entry.end.toFixed(0).padStart(5)}  ${entry.name}`,
				);
			}
		}
		return {
			firstCardsMs: probe.cardsPainted ?? Number.NaN,
			viewportThumbnailsMs,
			largestContentfulPaintMs: probe.lcp,
			bytes: network.bytes,
			requests: network.requests,
			bytesByType: { ...network.bytesByType },
			imageRequests: network.imageRequests,
			foreignRequests: network.foreignRequests,
			cardsInDom: probe.cards,
		};
	} finally {
		await context.close();
	}
}

type ScrollResult = {
	tasks: MainThreadTasks;
	isComplete: boolean;
	cardsPassed: number;
	elapsedMs: number;
	distancePx: number;
	frames: number[];
	longTasks: Array<{ startTime: number; duration: number }>;
	cardsInDom: number;
	domElements: number;
	listRequests: number;
	imageRequests: number;
	foreignRequests: number;
	bytes: number;
	heapBytes: number | null;
};

async function measureScroll(
	browser: Browser,
	baseUrl: string,
	cookies: ReadonlyArray<{ name: string; value: string }>,
): Promise<ScrollResult> {
	const { context, page, network } = await openPage(browser, baseUrl, cookies);
	let listRequests = 0;
	page.on("request", (request) => {
		if (new URL(request.url()).pathname === "/api/generations") listRequests += 1;
	});
	try {
		await page.goto(`${baseUrl}/generations`);
		await page.locator("article[data-generation-id]").first().waitFor();
		await waitForNetworkQuiet(network);
		const bytesBefore = network.bytes;
		const imagesBefore = network.imageRequests;
		await browser.startTracing(page, {
			...(TRACE ? { path: TRACE } : {}),
			categories: TRACE
				? ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "cc"]
				: ["toplevel"],
		});
		const result = await page.evaluate(
			async ({ targetCards, step, timeoutMs }) => {
				const longTasks: Array<{ startTime: number; duration: number }> = [];
				const observer = new PerformanceObserver((list) => {
					for (const entry of list.getEntries()) {
						longTasks.push({ startTime: entry.startTime, duration: entry.duration });
					}
				});
				observer.observe({ type: "longtask" });
				const frames: number[] = [];
				const started = performance.now();
				const startY = window.scrollY;
				let last = started;
				// Cards that have gone up past the top of the viewport, by id, as an IntersectionObserver
				// reports them (the browser works that out each frame anyway, so counting costs nothing).
				// The page keeps only the cards near the viewport (history-list.tsx): new ones are watched
				// as they are added.
				const passed = new Set<string>();
				const watcher = new IntersectionObserver((entries) => {
					for (const entry of entries) {
						const id = entry.target.getAttribute("data-generation-id");
						if (id && !entry.isIntersecting && entry.boundingClientRect.bottom <= 0) passed.add(id);
					}
				});
				for (const card of document.getElementsByTagName("article")) watcher.observe(card);
				const additions = new MutationObserver((records) => {
					for (const record of records) {
						for (const node of record.addedNodes) {
							if (!(node instanceof Element)) continue;
							for (const card of node.querySelectorAll("article")) watcher.observe(card);
							if (node.tagName === "ARTICLE") watcher.observe(node);
						}
					}
				});
				additions.observe(document.body, { childList: true, subtree: true });
				const isComplete = await new Promise<boolean>((resolve) => {
					const tick = (now: number) => {
						frames.push(now - last);
						last = now;
						if (passed.size >= targetCards) return resolve(true);
						if (now - started > timeoutMs) return resolve(false);
						window.scrollBy(0, step);
						requestAnimationFrame(tick);
					};
					requestAnimationFrame(tick);
				});
				// Let the last frames' tasks be reported before reading them.
				await new Promise((resolve) => setTimeout(resolve, 200));
				observer.disconnect();
				watcher.disconnect();
				additions.disconnect();
				const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
				return {
					isComplete,
					cardsPassed: passed.size,
					elapsedMs: performance.now() - started,
					distancePx: window.scrollY - startY,
					frames: frames.slice(1),
					longTasks,
					cardsInDom: document.querySelectorAll("article[data-generation-id]").length,
					domElements: document.getElementsByTagName("*").length,
					heapBytes: memory ? memory.usedJSHeapSize : null,
				};
			},
			{ targetCards: SCROLL_CARDS, step: SCROLL_STEP, timeoutMs: SCROLL_TIMEOUT_MS },
		);
		const tasks = readMainThreadTasks(await browser.stopTracing());
		return {
			...result,
			tasks,
			listRequests,
			imageRequests: network.imageRequests - imagesBefore,
			foreignRequests: network.foreignRequests,
			bytes: network.bytes - bytesBefore,
		};
	} finally {
		await context.close();
	}
}

type TraceEvent = {
	name: string;
	ph: string;
	dur?: number;
	/** Thread (CPU) time, where the trace has it. */
	tdur?: number;
	tid: number;
	pid: number;
	args?: { name?: string };
};

type MainThreadTasks = {
	count: number;
	/** Tasks of more than 50 ms by the clock, as the page's long-task observer sees them. */
	longByWall: number;
	/** Of those, the ones that used more than 50 ms of CPU: the page's own work, not waiting. */
	longByCpu: number;
	maxCpuMs: number;
	/** Wall and CPU milliseconds of every task longer than 50 ms by the clock. */
	long: Array<{ wallMs: number; cpuMs: number }>;
};

// A task of a thread's task loop: `ThreadControllerImpl::RunTask` in the `toplevel` category, which
// every trace here records; the detailed categories add a nested `RunTask`, not counted twice.
function isTask(event: TraceEvent): boolean {
	return event.ph === "X" && event.name === "ThreadControllerImpl::RunTask";
}

/**
 * The page's main-thread tasks from a trace: the renderer main thread that ran the most. With
 * TRACE set, also prints the busiest trace events on it (inclusive time).
 */
function readMainThreadTasks(buffer: Buffer): MainThreadTasks {
	const { traceEvents } = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] };
	const mainThreads = traceEvents.filter(
		(event) => event.name === "thread_name" && event.args?.name === "CrRendererMain",
	);
	const busiest = new Map<string, number>();
	for (const event of traceEvents) {
		if (isTask(event)) {
			const thread = `${event.pid}:${event.tid}`;
			busiest.set(thread, (busiest.get(thread) ?? 0) + (event.dur ?? 0));
		}
	}
	const main = mainThreads
		.map((thread) => ({ thread, total: busiest.get(`${thread.pid}:${thread.tid}`) ?? 0 }))
		.sort((left, right) => right.total - left.total)[0]?.thread;
	const onMain = main
		? traceEvents.filter(
				(event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X",
			)
		: [];
	const tasks = onMain.filter(isTask);
	const long = tasks
		.filter((task) => (task.dur ?? 0) > LONG_TASK_TARGET_MS * 1000)
		.map((task) => ({ wallMs: (task.dur ?? 0) / 1000, cpuMs: (task.tdur ?? 0) / 1000 }));
	if (TRACE) {
		const totals = new Map<string, { time: number; count: number }>();
		for (const event of onMain) {
			const total = totals.get(event.name) ?? { time: 0, count: 0 };
			total.time += (event.dur ?? 0) / 1000;
			total.count += 1;
			totals.set(event.name, total);
		}
		console.log(`Main-thread trace events (inclusive wall time, top 25), trace in ${TRACE}:`);
		printTable(
			["event", "count", "total", "mean"],
			[...totals.entries()]
				.sort((left, right) => right[1].time - left[1].time)
				.slice(0, 25)
				.map(([name, total]) => [
					name,
					String(total.count),
					formatMs(total.time),
					formatMs(total.time / total.count),
				]),
		);
	}
	return {
		count: tasks.length,
		longByWall: long.length,
		longByCpu: tasks.filter((task) => (task.tdur ?? 0) > LONG_TASK_TARGET_MS * 1000).length,
		// A reduce, not Math.max(...): a long scroll records more tasks than a call takes arguments.
		maxCpuMs: tasks.reduce((max, task) => Math.max(max, (task.tdur ?? 0) / 1000), 0),
		long,
	};
}

function formatBytes(bytes: number): string {
	return bytes >= 1_000_000
		? `${(bytes / 1_000_000).toFixed(2)} MB`
		: `${(bytes / 1_000).toFixed(1)} kB`;
}

async function main(): Promise<void> {
	try {
		await access("dist/web/index.html");
	} catch {
		throw new Error("dist/web is missing: run `npm run build` before this benchmark.");
	}
	const port = await findFreePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const imagesDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-browser-"));
	const database = await openBenchPglite();
	const storage = createLocalStorage(imagesDir);
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		// signUp() calls with the shared bench origin; the browser uses this server's own.
		settings: createBenchSettings({ baseUrl, trustedOrigins: [BENCH_BASE_URL] }),
		storage,
		models: createLocalProvider({ delayMs: 0 }),
		site: await loadStaticSite(process.env.WEB_DIST ?? "dist/web"),
		isWorkerEnabled: false,
	});
	const http = serve({ fetch: server.app.fetch, port, hostname: "127.0.0.1" });
	let browser: Browser | undefined;
	try {
		const person = await signUp(server, "history-browser@example.com");
		const seedStarted = performance.now();
		const ids = Array.from({ length: ROWS }, () => randomUUID());
		const variants = await renderVariants(storage, ids);
		await linkRowFiles(imagesDir, ids, variants);
		await seedRows(database, person.userId, ids, variants);
		console.log(
			`Seeded ${ROWS} generations (${VARIANTS} rendered image sets, files for the newest ${FILE_ROWS}) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; serving ${baseUrl}`,
		);

		const cookies = person.cookie.split("; ").map((pair) => {
			const separator = pair.indexOf("=");
			return { name: pair.slice(0, separator), value: pair.slice(separator + 1) };
		});
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
		console.log(
			`Chromium ${browser.version()}, viewport ${VIEWPORT_WIDTH}x${VIEWPORT_HEIGHT}, ${COLD_RUNS} cold loads (fresh context, empty cache each)`,
		);

		// One unmeasured load, so the server's and the database's first-request costs are not counted.
		await measureFirstScreen(browser, baseUrl, cookies);
		const loads: FirstScreen[] = [];
		for (let run = 0; run < COLD_RUNS; run++) {
			const load = await measureFirstScreen(browser, baseUrl, cookies);
			loads.push(load);
			console.log(
				`  load ${run + 1}: first cards ${formatMs(load.firstCardsMs)}, viewport thumbnails ${formatMs(load.viewportThumbnailsMs)}, LCP ${formatMs(load.largestContentfulPaintMs)}, ${formatBytes(load.bytes)} in ${load.requests} requests (${load.imageRequests} images), ${load.cardsInDom} cards`,
			);
		}
		const firstCards = summarize(loads.map((load) => load.firstCardsMs));
		const thumbnails = summarize(loads.map((load) => load.viewportThumbnailsMs));
		const bytes = summarize(loads.map((load) => load.bytes));
		const sample = loads.at(-1);

		console.log(`\nScrolling ${SCROLL_CARDS} cards, ${SCROLL_STEP} px per animation frame…`);
		const scroll = await measureScroll(browser, baseUrl, cookies);
		const frames = summarize(scroll.frames);
		const longest = Math.max(0, ...scroll.longTasks.map((task) => task.duration));
		const slowFrames = scroll.frames.filter((frame) => frame > 50).length;

		console.log("");
		printTable(
			["measure", "median", "p95", "max", "target", "result"],
			[
				[
					"navigation → first cards painted",
					formatMs(firstCards.median),
					formatMs(firstCards.p95),
					formatMs(firstCards.max),
					`< ${FIRST_CARDS_TARGET_MS} ms`,
					firstCards.max < FIRST_CARDS_TARGET_MS ? "met" : "MISSED",
				],
				[
					"navigation → viewport thumbnails loaded",
					formatMs(thumbnails.median),
					formatMs(thumbnails.p95),
					formatMs(thumbnails.max),
					"",
					"",
				],
				[
					"first screen bytes (all responses)",
					formatBytes(bytes.median),
					formatBytes(bytes.p95),
					formatBytes(bytes.max),
					`< ${formatBytes(FIRST_SCREEN_TARGET_BYTES)}`,
					bytes.max < FIRST_SCREEN_TARGET_BYTES ? "met" : "MISSED",
				],
				[
					`frame interval while scrolling (${frames.count} frames)`,
					formatMs(frames.median),
					formatMs(frames.p95),
					formatMs(frames.max),
					"",
					"",
				],
				[
					`long tasks while scrolling, by the clock (${scroll.longTasks.length})`,
					"",
					"",
					formatMs(longest),
					`none > ${LONG_TASK_TARGET_MS} ms`,
					scroll.longTasks.length === 0 && scroll.isComplete ? "met" : "MISSED",
				],
				[
					`main-thread tasks over ${LONG_TASK_TARGET_MS} ms of CPU (${scroll.tasks.longByCpu} of ${scroll.tasks.count})`,
					"",
					"",
					formatMs(scroll.tasks.maxCpuMs),
					`none > ${LONG_TASK_TARGET_MS} ms`,
					scroll.tasks.longByCpu === 0 && scroll.isComplete ? "met" : "MISSED",
				],
			],
		);
		if (sample) {
			console.log(
				`\nFirst screen by type (last load): ${Object.entries(sample.bytesByType)
					.map(([type, size]) => `${type} ${formatBytes(size)}`)
					.join(", ")}; ${sample.cardsInDom} cards in the DOM.`,
			);
		}
		console.log(
			`Scroll: ${scroll.isComplete ? "passed" : "DID NOT PASS"} ${SCROLL_CARDS} cards (${scroll.cardsPassed}) in ${(scroll.elapsedMs / 1000).toFixed(1)} s over ${(scroll.distancePx / 1000).toFixed(0)}k px; ` +
				`frames > 50 ms: ${slowFrames}; ${scroll.listRequests} list pages, ${scroll.imageRequests} thumbnails (${formatBytes(scroll.bytes)}); ` +
				`${scroll.cardsInDom} cards and ${scroll.domElements} elements in the DOM at the end` +
				(scroll.heapBytes ? `, JS heap ${formatBytes(scroll.heapBytes)}` : ""),
		);
		if (scroll.tasks.long.length > 0) {
			console.log(
				`Tasks over ${LONG_TASK_TARGET_MS} ms by the clock (trace), wall/CPU ms: ${scroll.tasks.long
					.map((task) => `${task.wallMs.toFixed(0)}/${task.cpuMs.toFixed(0)}`)
					.join(", ")}`,
			);
		}
		console.log(
			`Machine: ${describeMachine()} at the end; other work on the machine shows up as long tasks.`,
		);
		const foreign = loads.reduce((sum, load) => sum + load.foreignRequests, scroll.foreignRequests);
		console.log(`Requests to anything but 127.0.0.1: ${foreign}`);
	} finally {
		await browser?.close();
		await new Promise<void>((resolve) => {
			http.close(() => resolve());
			if ("closeAllConnections" in http) http.closeAllConnections();
		});
		await server.stop();
		await database.close();
		await rm(imagesDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
