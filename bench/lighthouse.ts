// Lighthouse 12 on the built server: `/` for a signed-out visitor, mobile, Lighthouse's default
// simulated throttling (slow 4G, 4x CPU slowdown), several runs, the median of each figure.
//
// Needs `npm run build` first: it serves dist/web (or WEB_DIST) through the real server, assembled
// in this process (in-memory PGlite, the offline engine, workers off) on a free port of 127.0.0.1.
// Chromium is Debian's (/usr/bin/chromium), launched by chrome-launcher with the flags the
// Playwright config uses.
//
//   node bench/run.mjs lighthouse                 RUNS=3, PAGES=/
//   RUNS=5 PAGES=/,/login node bench/run.mjs lighthouse
//
// Targets (issue 14): performance, accessibility and best practices 100, CLS 0, TBT under 30 ms.

import { launch } from "chrome-launcher";
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeMachine, printTable } from "./bench-support";
import {
	CATEGORIES,
	type LighthouseFigures,
	METRICS,
	runLighthouse,
	serveBuiltApp,
} from "./lighthouse-support";

const RUNS = Number(process.env.RUNS ?? 3);
const PAGES = (process.env.PAGES ?? "/").split(",").filter(Boolean);
const WEB_DIST = process.env.WEB_DIST ?? "dist/web";

function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	if (sorted.length === 0) return Number.NaN;
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function formatMetric(value: number, unit: string): string {
	if (Number.isNaN(value)) return "-";
	return unit === "ms" ? `${Math.round(value)} ms` : value.toFixed(3);
}

async function main(): Promise<void> {
	const app = await serveBuiltApp(WEB_DIST);
	const { baseUrl } = app;
	const chrome = await launch({
		chromePath: CHROMIUM_PATH,
		chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
		// A busy machine may take a while to start Chromium: give it 20 s, not chrome-launcher's 5.
		maxConnectionRetries: 200,
	});
	let isOver = false;
	try {
		console.log(describeMachine());
		console.log(
			`Lighthouse ${RUNS} run(s) per page, mobile, simulated throttling, against ${baseUrl} (${WEB_DIST})`,
		);
		for (const page of PAGES) {
			const runs: LighthouseFigures[] = [];
			// One unmeasured load first, so the server's first answers (compiling, caches) do not count.
			await fetch(new URL(page, baseUrl));
			for (let run = 0; run < RUNS; run += 1) {
				runs.push(await runLighthouse(new URL(page, baseUrl).href, chrome.port));
			}
			console.log(`\n${page}`);
			printTable(
				["figure", ...runs.map((_, index) => `run ${index + 1}`), "median"],
				[
					...CATEGORIES.map((category) => [
						category,
						...runs.map((run) => String(run.scores[category])),
						String(median(runs.map((run) => run.scores[category]))),
					]),
					...METRICS.map(({ id, label, unit }) => [
						label,
						...runs.map((run) => formatMetric(run.metrics[id], unit)),
						formatMetric(median(runs.map((run) => run.metrics[id])), unit),
					]),
				],
			);
			console.log(
				`largest contentful paint: ${[...new Set(runs.map((run) => run.lcpElement))].join(" | ")}`,
			);
			runs.forEach((run, index) => {
				console.log(
					`long tasks (simulated), run ${index + 1}: ${run.longTasks.join(", ") || "none"}`,
				);
			});
			const failing = [...new Set(runs.flatMap((run) => run.failing))];
			if (failing.length > 0) console.log(`audits under 0.9 in some run: ${failing.join(", ")}`);
			const scores = (category: (typeof CATEGORIES)[number]) =>
				median(runs.map((run) => run.scores[category]));
			const tbt = median(runs.map((run) => run.metrics["total-blocking-time"]));
			const cls = median(runs.map((run) => run.metrics["cumulative-layout-shift"]));
			const isWithin =
				scores("performance") === 100 &&
				scores("accessibility") === 100 &&
				scores("best-practices") === 100 &&
				cls === 0 &&
				tbt < 30;
			console.log(
				`targets (performance, accessibility, best practices 100; CLS 0; TBT < 30 ms): ${isWithin ? "met" : "NOT met"}`,
			);
			if (!isWithin) isOver = true;
		}
	} finally {
		chrome.kill();
		await app.close();
	}
	// Figures are printed, not asserted: the exit code stays 0 unless something broke.
	if (isOver) console.log("\n(some targets not met: see above)");
}

await main();
