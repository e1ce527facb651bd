// The shared page (/s/<token>, decision 036): its bytes and its first paint. The page is an HTML
// string of the server's, with its styles inline and one small script of its own; the app's bundle
// never loads. The real server (in-memory PGlite, the offline engine) on 127.0.0.1 makes one
// generation of four images and a link to it; then:
// - bytes: the page's HTML (as sent, and gzip level 6 as a proxy would), the preview keys' script,
//   and the four display copies the page shows; the count of requests the page makes.
// - ROUNDS (15) cold loads in Debian's Chromium, a fresh context each: the browser's
//   first-contentful-paint and the load event, median and 95th percentile.
//
//   node bench/run.mjs shared-page              ROUNDS=15
//
// Target: the page's first load under 10 kB before its images, and its first paint before the
// app's home screen's (bench/first-paint.ts measures that one).

import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { CreatedShareSchema, SharedPageSchema } from "../src/shared/history/sharing";
import {
	BENCH_BASE_URL,
	CHROMIUM_ARGS,
	CHROMIUM_PATH,
	formatMs,
	printTable,
	serveBenchServer,
	signUp,
	summarize,
} from "./bench-support";

const ROUNDS = Number(process.env.ROUNDS ?? 15);

async function main() {
	const server = await serveBenchServer({
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: true,
		trustedOrigins: [BENCH_BASE_URL],
	});
	const { baseUrl } = server;
	try {
		const { cookie } = await signUp(server, "sharer@example.com");
		const headers = { cookie, origin: baseUrl, "content-type": "application/json" };
		const started = await server.app.request("/api/generations", {
			method: "POST",
			headers,
			body: JSON.stringify({ prompt: "A lighthouse at dusk", aspectRatio: "--ar 16:9", count: 4 }),
		});
		const { id } = (await started.json()) as { id: string };
		for (let attempt = 0; attempt < 200; attempt++) {
			const poll = await server.app.request(`/api/generations/${id}/status`, { headers });
			const { status } = (await poll.json()) as { status: string };
			if (status === "completed") break;
			if (status === "failed") throw new Error("the generation failed");
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const made = await server.app.request("/api/shares", {
			method: "POST",
			headers,
			body: JSON.stringify({
				target: { generationId: id },
				expires: "7d",
				originals: false,
				showPrompt: true,
			}),
		});
		const share = CreatedShareSchema.parse(await made.json());
		const pageUrl = `${baseUrl}/s/${share.token}`;

		const html = Buffer.from(await (await fetch(pageUrl)).arrayBuffer());
		const script = Buffer.from(await (await fetch(`${baseUrl}/s/preview-keys.js`)).arrayBuffer());
		const data = SharedPageSchema.parse(
			await (await fetch(`${baseUrl}/api/s/${share.token}`)).json(),
		);
		let imageBytes = 0;
		for (const image of data.images) {
			imageBytes += (await (await fetch(`${baseUrl}${image.url}`)).arrayBuffer()).byteLength;
		}
		printTable(
			["what", "bytes", "gzip"],
			[
				["page (HTML, styles inline)", String(html.length), String(gzipSync(html).length)],
				["preview keys' script", String(script.length), String(gzipSync(script).length)],
				[`${data.images.length} display copies (WebP)`, String(imageBytes), "-"],
			],
		);

		const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
		const paints: number[] = [];
		const loads: number[] = [];
		let requests = 0;
		try {
			for (let round = 0; round <= ROUNDS; round++) {
				const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
				const page = await context.newPage();
				let count = 0;
				page.on("request", () => {
					count += 1;
				});
				await page.goto(pageUrl, { waitUntil: "load" });
				await page.waitForFunction(
					() => performance.getEntriesByName("first-contentful-paint").length > 0,
				);
				const figures = await page.evaluate(() => ({
					paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
					load:
						(
							performance.getEntriesByType("navigation")[0] as
								| PerformanceNavigationTiming
								| undefined
						)?.loadEventStart ?? Number.NaN,
				}));
				await context.close();
				// The first load warms the server and the browser; it is not counted.
				if (round === 0) continue;
				paints.push(figures.paint);
				loads.push(figures.load);
				requests = count;
			}
		} finally {
			await browser.close();
		}
		const paint = summarize(paints);
		const load = summarize(loads);
		console.log("");
		printTable(
			["cold load", "median", "p95"],
			[
				["first contentful paint", formatMs(paint.median), formatMs(paint.p95)],
				["load event", formatMs(load.median), formatMs(load.p95)],
			],
		);
		console.log(
			`\n${ROUNDS} rounds; ${requests} requests a load (the page, its script, its images).`,
		);
	} finally {
		await server.close();
	}
}

await main();
