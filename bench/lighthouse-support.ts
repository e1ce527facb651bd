// Lighthouse for the benchmarks (not a benchmark itself; bench/run.mjs skips it): one mobile run
// with Lighthouse's default simulated throttling (slow 4G, the CPU slowed 4x), read into figures,
// and the real server with a built web app, assembled in this process for it to load.

import lighthouse from "lighthouse";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { serveBenchServer } from "./bench-support";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export const METRICS = [
	{ id: "first-contentful-paint", label: "FCP", unit: "ms" },
	{ id: "largest-contentful-paint", label: "LCP", unit: "ms" },
	{ id: "total-blocking-time", label: "TBT", unit: "ms" },
	{ id: "cumulative-layout-shift", label: "CLS", unit: "" },
	{ id: "speed-index", label: "Speed Index", unit: "ms" },
	{ id: "interactive", label: "TTI", unit: "ms" },
	// As the page really loaded on this machine, without the simulated throttling.
	{ id: "observed-first-contentful-paint", label: "FCP, unthrottled", unit: "ms" },
	{ id: "observed-largest-contentful-paint", label: "LCP, unthrottled", unit: "ms" },
] as const;

export type LighthouseFigures = {
	scores: Record<(typeof CATEGORIES)[number], number>;
	metrics: Record<(typeof METRICS)[number]["id"], number>;
	/** Audits that did not pass, for the record. */
	failing: string[];
	/** The largest contentful paint's element and the longest main-thread tasks, to explain the figures. */
	lcpElement: string;
	longTasks: string[];
};

/**
 * One Lighthouse run, mobile, simulated throttling, in the Chromium listening on `port`. A run that
 * Lighthouse itself asks to repeat (NO_NAVSTART: on a busy machine the trace sometimes misses the
 * navigation's start) is run again, up to `attempts` times in all.
 */
export async function runLighthouse(
	url: string,
	port: number,
	attempts = 3,
): Promise<LighthouseFigures> {
	for (let attempt = 1; ; attempt += 1) {
		try {
			return await runLighthouseOnce(url, port);
		} catch (error) {
			const isRepeatable = error instanceof Error && /run Lighthouse again/.test(error.message);
			if (!isRepeatable || attempt >= attempts) throw error;
			console.log(`(${error.message}: running it again)`);
		}
	}
}

async function runLighthouseOnce(url: string, port: number): Promise<LighthouseFigures> {
	const result = await lighthouse(url, {
		port,
		output: "json",
		logLevel: "error",
		onlyCategories: [...CATEGORIES],
		formFactor: "mobile",
	});
	if (!result) throw new Error("Lighthouse returned no result");
	const { lhr } = result;
	if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
	const scores = Object.fromEntries(
		CATEGORIES.map((category) => [
			category,
			Math.round((lhr.categories[category]?.score ?? 0) * 100),
		]),
	) as LighthouseFigures["scores"];
	const metrics = Object.fromEntries(
		METRICS.map(({ id }) => [id, lhr.audits[id]?.numericValue ?? Number.NaN]),
	) as LighthouseFigures["metrics"];
	const failing = Object.values(lhr.audits)
		.filter(
			(audit) =>
				audit.score !== null &&
				audit.score < 0.9 &&
				audit.scoreDisplayMode !== "informative" &&
				audit.scoreDisplayMode !== "manual" &&
				audit.scoreDisplayMode !== "notApplicable",
		)
		.map((audit) => `${audit.id} (${audit.displayValue ?? audit.score})`);
	const lcpDetails = lhr.audits["largest-contentful-paint-element"]?.details as
		| { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> }
		| undefined;
	const lcpElement = lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet ?? "-";
	const taskDetails = lhr.audits["long-tasks"]?.details as
		| { items?: Array<{ url?: string; duration?: number; startTime?: number }> }
		| undefined;
	const longTasks = (taskDetails?.items ?? []).map(
		(task) =>
			`${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms (${(task.url ?? "").replace(/^https?:\/\/[^/]+/, "")})`,
	);
	const observed = (
		lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined
	)?.items?.[0];
	metrics["observed-first-contentful-paint"] = observed?.observedFirstContentfulPaint ?? Number.NaN;
	metrics["observed-largest-contentful-paint"] =
		observed?.observedLargestContentfulPaint ?? Number.NaN;
	return { scores, metrics, failing, lcpElement, longTasks };
}

export type ServedApp = { baseUrl: string; close(): Promise<void> };

/**
 * The real server (in-memory PGlite, the offline engine, workers off) with the web app built in
 * `webDist`, over HTTP on a free port of 127.0.0.1: its headers, compression and API as deployed.
 */
export async function serveBuiltApp(webDist: string): Promise<ServedApp> {
	return serveBenchServer({
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
		webDist,
	});
}
