// First contentful paint and the main thread's blocking after it: the prerendered home screen
// against a client-rendered app of the reference's size (docs/decisions/012 and 027).
//
// Needs `npm run build` first. Builds the stand-in (bench/first-paint-stand-in.ts: the app's own
// entry and what the generator loads on demand, one chunk of about 142 KiB gzip, rendered by the
// browser alone from the app shell) into .tmp/first-paint-stand-in, and serves it and dist/web (or
// WEB_DIST) each through the real server (lighthouse-support.ts: headers, compression, the API) on
// 127.0.0.1. Then, in Debian's Chromium:
// - ROUNDS rounds (21) of cold loads (a fresh context each: no cache, no cookie, no code cache,
//   no service worker; the bench fails if any request of the page did not go to the network),
//   interleaved, the order turning each round, after one unmeasured load of each. Each context
//   opens its window on a blank page and waits for the browser to be quiet before the measured
//   navigation, as a person's window is open before they type the address (decision 043);
//   COMPARE_WINDOW_WITH_NAVIGATION=1 adds both pages loaded as before, the window opened by the
//   navigation itself. Per load: the
//   browser's `first-contentful-paint` entry; when the prompt box is in the document (a
//   MutationObserver, which asks for no frame: an animation-frame loop would make the browser
//   produce frames it would otherwise not); the largest contentful paint; and the total blocking
//   time as it really happened, unthrottled: the `longtask` entries that start after the first
//   paint, until the network and the main thread have been quiet for a second, each counted
//   beyond its first 50 ms.
// - SLOWED_ROUNDS rounds (7) of the same loads with the CPU 4x slower (DevTools' throttling, as
//   Lighthouse's mobile CPU): first contentful paint and total blocking time as they happen.
// - LIGHTHOUSE_ROUNDS rounds (3) of Lighthouse, mobile, simulated throttling (slow 4G, the CPU
//   4x slower), interleaved likewise: its first contentful paint and total blocking time.
// Medians over the rounds; "same round": the median of each round's ratio to the stand-in's load
// of that round, which a drifting machine load moves less.
//
//   node bench/run.mjs first-paint                      ROUNDS=21, LIGHTHOUSE_ROUNDS=3
//   ROUNDS=31 COMPARE_DISTS=.tmp/old-web node bench/run.mjs first-paint
//
// Targets: the prerendered page's first contentful paint at most 0.6x the stand-in's; total
// blocking time (Lighthouse, mobile) under 100 ms and below the stand-in's.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Browser, type CDPSession, chromium, type Page } from "@playwright/test";
import { launch } from "chrome-launcher";
import { build, type InlineConfig } from "vite";
import viteConfig from "../vite.config";
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeMachine, printTable } from "./bench-support";
import { runLighthouse, type ServedApp, serveBuiltApp } from "./lighthouse-support";

const ROUNDS = Number(process.env.ROUNDS ?? 21);
const SLOWED_ROUNDS = Number(process.env.SLOWED_ROUNDS ?? 7);
/** Lighthouse's mobile CPU: this machine's, 4x slower. */
const CPU_SLOWDOWN = 4;
const LIGHTHOUSE_ROUNDS = Number(process.env.LIGHTHOUSE_ROUNDS ?? 3);
const WEB_DIST = process.env.WEB_DIST ?? "dist/web";
const COMPARE_DISTS = (process.env.COMPARE_DISTS ?? "").split(",").filter(Boolean);
/** Also `/` and the stand-in with each cold context's window opened by the navigation itself. */
const COMPARE_WINDOW_WITH_NAVIGATION = process.env.COMPARE_WINDOW_WITH_NAVIGATION === "1";
const STAND_IN_DIST = path.resolve(".tmp/first-paint-stand-in");
/** The page is settled once neither the network nor the main thread has been busy for this long. */
const QUIET_MS = 1000;
const SETTLE_LIMIT_MS = 8000;
/** A new window has settled once the browser used under QUIET_CPU_MS in QUIET_SAMPLES 100 ms in a row. */
const QUIET_CPU_MS = 5;
const QUIET_SAMPLES = 3;
const WINDOW_SETTLE_LIMIT_MS = 5000;

type Variant = {
	label: string;
	url: string;
	/** The window opened by the navigation itself, as the bench did before decision 043's entry. */
	windowWithNavigation: boolean;
	/** The index of the stand-in variant this one's ratios are taken against. */
	standIn: number;
};
type LoadFigures = {
	fcp: number;
	lcp: number;
	promptBox: number;
	/** Sum over the long tasks after the first paint of their time beyond 50 ms. */
	blocking: number;
	longestTask: number;
};
type LighthouseRun = { fcp: number; tbt: number; longTasks: string[] };

/**
 * Builds the stand-in with the app's Vite config, its entry bench/first-paint-stand-in.ts and one
 * chunk for everything it imports statically, and gives it the app shell of WEB_DIST as its page.
 */
async function buildStandIn(): Promise<{ gzipBytes: number }> {
	const config = viteConfig as InlineConfig;
	await build({
		...config,
		configFile: false,
		logLevel: "error",
		build: {
			...config.build,
			outDir: STAND_IN_DIST,
			emptyOutDir: true,
			sourcemap: false,
			rolldownOptions: {
				input: path.resolve("bench/first-paint-stand-in.ts"),
				output: { codeSplitting: { groups: [{ name: "stand-in", tags: ["$initial"] }] } },
			},
		},
	});
	const manifest = JSON.parse(
		await readFile(path.join(STAND_IN_DIST, ".vite/manifest.json"), "utf8"),
	) as Record<string, { file: string; css?: string[]; isEntry?: boolean }>;
	const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
	if (!entry) throw new Error("the stand-in's build has no entry");
	const shell = await readFile(path.join(WEB_DIST, "index.html"), "utf8");
	const page = shell
		.replace(/<link rel="modulepreload"[^>]*>\s*/g, "")
		.replace(/<link rel="stylesheet"[^>]*>/g, "")
		.replace(
			/<script type="module" crossorigin src="[^"]+"><\/script>/,
			`<script type="module" crossorigin src="/${entry.file}"></script>${(entry.css ?? [])
				.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)
				.join("")}`,
		);
	await writeFile(path.join(STAND_IN_DIST, "index.html"), page);
	const { gzipSync } = await import("node:zlib");
	const script = await readFile(path.join(STAND_IN_DIST, entry.file));
	return { gzipBytes: gzipSync(script, { level: 9 }).length };
}

// Runs in the page before its own scripts.
const OBSERVER_SCRIPT = `
(() => {
	const figures = { promptBox: NaN, lcp: NaN, longTasks: [], lastBusy: 0 };
	window.__firstPaintFigures = figures;
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) figures.lcp = entry.startTime;
	}).observe({ type: "largest-contentful-paint", buffered: true });
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			figures.longTasks.push([entry.startTime, entry.duration]);
			figures.lastBusy = Math.max(figures.lastBusy, entry.startTime + entry.duration);
		}
	}).observe({ type: "longtask", buffered: true });
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			figures.lastBusy = Math.max(figures.lastBusy, entry.responseEnd);
		}
	}).observe({ type: "resource", buffered: true });
	const look = () => {
		if (!Number.isNaN(figures.promptBox)) return;
		if (document.querySelector("textarea")) {
			figures.promptBox = performance.now();
			observer.disconnect();
		}
	};
	const observer = new MutationObserver(look);
	observer.observe(document, { childList: true, subtree: true });
})();
`;

/** The browser's processes' CPU time in all, in milliseconds (DevTools' SystemInfo). */
async function browserCpuMs(session: CDPSession): Promise<number> {
	const { processInfo } = (await session.send("SystemInfo.getProcessInfo")) as {
		processInfo: Array<{ cpuTime: number }>;
	};
	return processInfo.reduce((sum, process) => sum + process.cpuTime, 0) * 1000;
}

/**
 * Opens the cold context's window on a blank page, then waits until the browser is quiet: its
 * processes together used under QUIET_CPU_MS of CPU in each of QUIET_SAMPLES samples of 100 ms in
 * a row. By then the browser's own work for the new window (its toolbar, the omnibox popup's
 * WebUI renderer), which runs on the same cores as the page, is done, as it is when a person types
 * the address into a window already open (decision 043). The blank page asks for nothing, so the
 * context's cache stays empty.
 */
async function openWindow(page: Page, browserSession: CDPSession): Promise<void> {
	await page.goto("about:blank");
	const started = Date.now();
	let last = await browserCpuMs(browserSession);
	let quietSamples = 0;
	while (quietSamples < QUIET_SAMPLES && Date.now() - started < WINDOW_SETTLE_LIMIT_MS) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		const now = await browserCpuMs(browserSession);
		quietSamples = now - last < QUIET_CPU_MS ? quietSamples + 1 : 0;
		last = now;
	}
}

/**
 * One cold load: a fresh context (no cache, no cookie, no service worker), its window opened
 * first unless `windowWithNavigation`; with `cpuSlowdown`, the page's CPU slowed that many times
 * (DevTools' throttling). Fails if any of the page's requests did not go to the network.
 */
async function loadCold(
	browser: Browser,
	browserSession: CDPSession,
	url: string,
	{ cpuSlowdown = 1, windowWithNavigation = false } = {},
): Promise<LoadFigures> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	try {
		const page = await context.newPage();
		if (!windowWithNavigation) await openWindow(page, browserSession);
		if (cpuSlowdown > 1) {
			const session = await context.newCDPSession(page);
			await session.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
		}
		await page.addInitScript(OBSERVER_SCRIPT);
		await page.goto(url, { waitUntil: "load" });
		await page.waitForFunction(
			() =>
				performance.getEntriesByName("first-contentful-paint").length > 0 &&
				document.querySelector("textarea") !== null,
		);
		const started = Date.now();
		for (;;) {
			await page.waitForTimeout(250);
			const quietFor = await page.evaluate(
				() =>
					performance.now() -
					(window as unknown as { __firstPaintFigures: { lastBusy: number } }).__firstPaintFigures
						.lastBusy,
			);
			if (quietFor >= QUIET_MS || Date.now() - started > SETTLE_LIMIT_MS) break;
		}
		const notFromNetwork = await page.evaluate(() =>
			[...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
				.filter((entry) => (entry as PerformanceResourceTiming).transferSize === 0)
				.map((entry) => entry.name),
		);
		if (notFromNetwork.length > 0)
			throw new Error(`a cold load took from a cache: ${notFromNetwork.join(", ")}`);
		return await page.evaluate(() => {
			const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
			const figures = (
				window as unknown as {
					__firstPaintFigures: {
						promptBox: number;
						lcp: number;
						longTasks: Array<[number, number]>;
					};
				}
			).__firstPaintFigures;
			const after = figures.longTasks.filter(([start]) => start >= fcp);
			return {
				fcp,
				lcp: figures.lcp,
				promptBox: figures.promptBox,
				blocking: after.reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
				longestTask: Math.max(0, ...after.map(([, duration]) => duration)),
			};
		});
	} finally {
		await context.close();
	}
}

function median(values: readonly number[]): number {
	const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	if (sorted.length === 0) return Number.NaN;
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function formatMs(value: number): string {
	return Number.isNaN(value) ? "-" : `${value.toFixed(0)} ms`;
}

function formatRatio(value: number): string {
	return Number.isNaN(value) ? "-" : `${value.toFixed(2)}x`;
}

/** Each variant in turn, the order turning each round, so a busy moment falls on all alike. */
async function interleave<T>(
	rounds: number,
	variants: readonly Variant[],
	measure: (variant: Variant) => Promise<T>,
): Promise<T[][]> {
	const results = variants.map(() => [] as T[]);
	for (let round = 0; round < rounds; round += 1) {
		for (let step = 0; step < variants.length; step += 1) {
			const index = (round + step) % variants.length;
			const variant = variants[index];
			if (variant) results[index]?.push(await measure(variant));
		}
	}
	return results;
}

/** The median over the rounds of a figure's ratio to the stand-in's in the same round. */
function medianRoundRatio(values: readonly number[], standIn: readonly number[]): number {
	return median(values.map((value, round) => value / (standIn[round] ?? Number.NaN)));
}

async function main(): Promise<void> {
	const { gzipBytes } = await buildStandIn();
	const apps: ServedApp[] = [];
	try {
		const variants: Variant[] = [];
		const addVariant = async (label: string, directory: string) => {
			const app = await serveBuiltApp(directory);
			apps.push(app);
			variants.push({ label, url: `${app.baseUrl}/`, windowWithNavigation: false, standIn: 1 });
		};
		await addVariant("prerendered /", WEB_DIST);
		await addVariant("client-rendered stand-in", STAND_IN_DIST);
		for (const directory of COMPARE_DISTS)
			await addVariant(`prerendered / (${directory})`, directory);
		if (COMPARE_WINDOW_WITH_NAVIGATION) {
			const [home, standIn] = variants;
			if (!home || !standIn) throw new Error("the variants are missing");
			const standInIndex = variants.length + 1;
			for (const variant of [home, standIn])
				variants.push({
					label: `${variant.label} (window opened by the navigation)`,
					url: variant.url,
					windowWithNavigation: true,
					standIn: standInIndex,
				});
		}

		console.log(describeMachine());
		console.log(
			`stand-in: one chunk of ${(gzipBytes / 1024).toFixed(1)} KiB gzip, rendered in the browser`,
		);
		const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
		const browserSession = await browser.newBrowserCDPSession();
		let loads: LoadFigures[][];
		let slowedLoads: LoadFigures[][];
		try {
			console.log(
				`${ROUNDS} rounds of cold loads, interleaved, Chromium ${browser.version()}, 1280x800, loopback, unthrottled`,
			);
			// One unmeasured load of each, so the server's first answers (compression, caches) do not count.
			for (const variant of variants) await loadCold(browser, browserSession, variant.url, variant);
			loads = await interleave(ROUNDS, variants, (variant) =>
				loadCold(browser, browserSession, variant.url, variant),
			);
			slowedLoads = await interleave(SLOWED_ROUNDS, variants, (variant) =>
				loadCold(browser, browserSession, variant.url, { ...variant, cpuSlowdown: CPU_SLOWDOWN }),
			);
		} finally {
			await browser.close();
		}
		printTable(
			[
				"page",
				"FCP",
				"FCP / stand-in",
				"same round",
				"prompt box in the document",
				"LCP",
				"TBT",
				"longest task after FCP",
			],
			variants.map((variant, index) => {
				const figures = loads[index] ?? [];
				const standInFcps = (loads[variant.standIn] ?? []).map((load) => load.fcp);
				const fcp = median(figures.map((load) => load.fcp));
				return [
					variant.label,
					formatMs(fcp),
					formatRatio(fcp / median(standInFcps)),
					formatRatio(
						medianRoundRatio(
							figures.map((load) => load.fcp),
							standInFcps,
						),
					),
					formatMs(median(figures.map((load) => load.promptBox))),
					formatMs(median(figures.map((load) => load.lcp))),
					formatMs(median(figures.map((load) => load.blocking))),
					formatMs(median(figures.map((load) => load.longestTask))),
				];
			}),
		);
		console.log(describeMachine());
		if (SLOWED_ROUNDS > 0) {
			console.log(
				`\n${SLOWED_ROUNDS} rounds of cold loads, interleaved, the CPU ${CPU_SLOWDOWN}x slower (DevTools' throttling)`,
			);
			printTable(
				["page", "FCP", "TBT", "TBT each round", "longest task after FCP"],
				variants.map((variant, index) => {
					const figures = slowedLoads[index] ?? [];
					return [
						variant.label,
						formatMs(median(figures.map((load) => load.fcp))),
						formatMs(median(figures.map((load) => load.blocking))),
						figures.map((load) => Math.round(load.blocking)).join(" / "),
						formatMs(median(figures.map((load) => load.longestTask))),
					];
				}),
			);
			console.log(describeMachine());
		}

		if (LIGHTHOUSE_ROUNDS > 0) {
			// Lighthouse opens its own page: the window's variants are the same loads to it.
			const lighthouseVariants = variants.filter((variant) => !variant.windowWithNavigation);
			const chrome = await launch({
				chromePath: CHROMIUM_PATH,
				chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
				maxConnectionRetries: 200,
			});
			let runs: LighthouseRun[][];
			try {
				console.log(
					`\nLighthouse, mobile, simulated throttling: ${LIGHTHOUSE_ROUNDS} rounds, interleaved`,
				);
				runs = await interleave(LIGHTHOUSE_ROUNDS, lighthouseVariants, async (variant) => {
					const { metrics, longTasks } = await runLighthouse(variant.url, chrome.port);
					return {
						fcp: metrics["first-contentful-paint"],
						tbt: metrics["total-blocking-time"],
						longTasks,
					};
				});
			} finally {
				chrome.kill();
			}
			const standInRuns = runs[1] ?? [];
			printTable(
				["page", "FCP", "FCP / stand-in", "TBT", "TBT each round"],
				lighthouseVariants.map((variant, index) => {
					const figures = runs[index] ?? [];
					const fcp = median(figures.map((run) => run.fcp));
					return [
						variant.label,
						formatMs(fcp),
						formatRatio(fcp / median(standInRuns.map((run) => run.fcp))),
						formatMs(median(figures.map((run) => run.tbt))),
						figures.map((run) => Math.round(run.tbt)).join(" / "),
					];
				}),
			);
			lighthouseVariants.forEach((variant, index) => {
				for (const [round, run] of (runs[index] ?? []).entries()) {
					console.log(
						`${variant.label}, round ${round + 1}, long tasks (simulated): ${run.longTasks.join(", ") || "none"}`,
					);
				}
			});
			console.log(describeMachine());
		}
	} finally {
		for (const app of apps) await app.close();
	}
}

await main();
