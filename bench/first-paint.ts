// First contentful paint of the prerendered home screen against the same app rendered only in the
// browser, as the app was before prerendering (docs/decisions/012-prerendering-and-hydration.md).
//
// Needs `npm run build` first. Serves dist/web (or WEB_DIST) with the server's own page answering
// (`loadStaticSite`, in a bare Hono app: no database, nobody signed in, the offline engine) on a
// free port of 127.0.0.1, and loads, cold (a fresh Chromium context each time: no cache, no
// cookie), one after the other:
// - `/`, the prerendered page, hydrated by the app, which its loader fetches after the first paint;
// - `/?client-only`, the app shell: a URL with a query gets index.html with an empty #root, which
//   the same script renders with createRoot. That is a client-only React app of exactly the app's
//   size, its styles and its server, which is what the first page was before prerendering;
// - with COMPARE_DISTS set (folders, comma-separated), `/` of those other builds too (to compare
//   builds of the app).
// The loads are interleaved (the order turns each round), so a busy moment of the machine falls on
// every variant alike; the figures are the medians over the rounds ("same round": the median of
// each round's ratio of a page's FCP to the client-only one's, which a drifting load moves less).
// FCP is the browser's `first-contentful-paint` entry; "app script arrived" is when the app's entry
// script (assets/index-*.js) had been received (its resource timing's responseEnd): on loopback at
// once, unless the page asks for it only after its first paint, as the prerendered pages now do.
//
//   node bench/run.mjs first-paint                       PAIRS=21
//   PAIRS=31 COMPARE_DISTS=.tmp/old-web node bench/run.mjs first-paint
//
// Target: the prerendered page's median FCP at most 0.6x the client-only one's.

import { cpus, loadavg } from "node:os";
import { serve } from "@hono/node-server";
import { type Browser, chromium } from "@playwright/test";
import { Hono } from "hono";
import { loadStaticSite } from "../src/server/http/static-site";
import { findFreePort } from "../src/server/testing/postgres-cluster";
import { CHROMIUM_ARGS, CHROMIUM_PATH, printTable } from "./bench-support";

const PAIRS = Number(process.env.PAIRS ?? 21);
const WEB_DIST = process.env.WEB_DIST ?? "dist/web";
const COMPARE_DISTS = (process.env.COMPARE_DISTS ?? "").split(",").filter(Boolean);

type Variant = { label: string; url: string };
type LoadFigures = { fcp: number; lcp: number; scriptArrived: number; promptBox: number };

/** The built site answered as the server answers it, for a signed-out visitor. */
async function serveSite(directory: string): Promise<{ baseUrl: string; close: () => void }> {
	const site = await loadStaticSite(directory);
	const app = new Hono();
	app.get("*", (context) => {
		const answer = site.serve(context, {
			publicConfig: {
				googleEnabled: false,
				imageProvider: "local",
				emailVerificationRequired: false,
				modelChoice: false,
			},
			hasSessionCookie: false,
		});
		return answer ?? context.notFound();
	});
	const port = await findFreePort();
	const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
	return { baseUrl: `http://127.0.0.1:${port}`, close: () => server.close() };
}

// Runs in the page before its own scripts: notes when the prompt box is first in a painted frame
// (the first animation frame that finds it in the DOM) and the largest contentful paint.
const OBSERVER_SCRIPT = `
(() => {
	const figures = { promptBox: NaN, lcp: NaN };
	window.__firstPaintFigures = figures;
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) figures.lcp = entry.startTime;
	}).observe({ type: "largest-contentful-paint", buffered: true });
	const look = () => {
		if (document.querySelector("textarea")) {
			figures.promptBox = performance.now();
			return;
		}
		requestAnimationFrame(look);
	};
	requestAnimationFrame(look);
})();
`;

async function loadCold(browser: Browser, url: string): Promise<LoadFigures> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	try {
		const page = await context.newPage();
		await page.addInitScript(OBSERVER_SCRIPT);
		await page.goto(url, { waitUntil: "load" });
		await page.waitForFunction(
			() =>
				performance.getEntriesByName("first-contentful-paint").length > 0 &&
				document.querySelector("textarea") !== null,
		);
		// A little settling time, so the LCP observer and the frame loop have reported.
		await page.waitForTimeout(300);
		return await page.evaluate(() => {
			const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
			const entryScript = performance
				.getEntriesByType("resource")
				.find((entry) => /\/assets\/index-[^/]+\.js$/.test(entry.name)) as
				| PerformanceResourceTiming
				| undefined;
			const figures = (window as unknown as { __firstPaintFigures: Record<string, number> })
				.__firstPaintFigures;
			return {
				fcp,
				lcp: figures?.lcp ?? NaN,
				scriptArrived: entryScript?.responseEnd ?? NaN,
				promptBox: figures?.promptBox ?? NaN,
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
	return Number.isNaN(value) ? "-" : `${value.toFixed(1)} ms`;
}

function formatLoad(): string {
	return `load average ${loadavg()
		.map((load) => load.toFixed(1))
		.join(", ")} on ${cpus().length} cores`;
}

async function main(): Promise<void> {
	const sites = [await serveSite(WEB_DIST)];
	const [current] = sites;
	if (!current) throw new Error("no site");
	const variants: Variant[] = [
		{ label: "prerendered /", url: `${current.baseUrl}/` },
		{ label: "client-only /", url: `${current.baseUrl}/?client-only` },
	];
	for (const directory of COMPARE_DISTS) {
		const other = await serveSite(directory);
		sites.push(other);
		variants.push({ label: `prerendered / (${directory})`, url: `${other.baseUrl}/` });
	}
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
	try {
		console.log(formatLoad());
		console.log(
			`${PAIRS} rounds of cold loads, interleaved, Chromium ${browser.version()}, 1280x800, loopback, ${WEB_DIST}`,
		);
		// One unmeasured load of each, so the server's first answers (compression, caches) do not count.
		for (const variant of variants) await loadCold(browser, variant.url);
		const results = variants.map(() => [] as LoadFigures[]);
		for (let round = 0; round < PAIRS; round += 1) {
			for (let step = 0; step < variants.length; step += 1) {
				const index = (round + step) % variants.length;
				const variant = variants[index];
				if (variant) results[index]?.push(await loadCold(browser, variant.url));
			}
		}
		const clientOnlyLoads = results[1] ?? [];
		const clientOnly = median(clientOnlyLoads.map((load) => load.fcp));
		/** The median, over the rounds, of a load's FCP over the client-only load's of its round. */
		const medianRoundRatio = (loads: LoadFigures[]) =>
			median(loads.map((load, round) => load.fcp / (clientOnlyLoads[round]?.fcp ?? Number.NaN)));
		printTable(
			[
				"page",
				"FCP",
				"FCP / client-only",
				"same round",
				"prompt box in a frame",
				"LCP",
				"app script arrived",
			],
			variants.map((variant, index) => {
				const loads = results[index] ?? [];
				const fcp = median(loads.map((load) => load.fcp));
				return [
					variant.label,
					formatMs(fcp),
					`${(fcp / clientOnly).toFixed(2)}x`,
					`${medianRoundRatio(loads).toFixed(2)}x`,
					formatMs(median(loads.map((load) => load.promptBox))),
					formatMs(median(loads.map((load) => load.lcp))),
					formatMs(median(loads.map((load) => load.scriptArrived))),
				];
			}),
		);
		const prerendered = results[0] ?? [];
		const scriptFirst = prerendered.filter((load) => load.scriptArrived < load.fcp).length;
		console.log(
			`prerendered /: the app's script had arrived before the first paint in ${scriptFirst} of ${prerendered.length} loads`,
		);
		console.log(formatLoad());
	} finally {
		await browser.close();
		for (const site of sites) site.close();
	}
}

await main();
