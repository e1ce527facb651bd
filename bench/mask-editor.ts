// Benchmark of the mask editor in a real browser: the size of its lazy chunk in the build, and the
// time from opening the editor (the navigation to /edit) to the first brush stroke drawn on its
// canvas, on the real server with the offline engine. Needs `npm run build` first (it serves
// dist/web, or the build WEB_DIST names). Run from the repository root (bench/README.md):
//   node bench/run.mjs mask-editor
// Optional: RUNS=5 CHROMIUM_PATH=/usr/bin/chromium

import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "@playwright/test";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import {
	BENCH_BASE_URL,
	CHROMIUM_ARGS,
	CHROMIUM_PATH,
	formatMs,
	serveBenchServer,
	signUp,
	summarize,
} from "./bench-support";

const WEB_DIST = process.env.WEB_DIST ?? "dist/web";
const RUNS = Number(process.env.RUNS ?? 5);

async function measureChunk(): Promise<{ name: string; raw: number; gzip: number }> {
	const assets = path.join(WEB_DIST, "assets");
	const name = (await readdir(assets)).find((file) => /^editor-page-.*\.js$/.test(file));
	if (!name) throw new Error(`no editor-page chunk in ${assets}: run npm run build first`);
	const bytes = await readFile(path.join(assets, name));
	return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function main(): Promise<void> {
	const chunk = await measureChunk();
	console.log(
		`editor chunk ${chunk.name}: ${(chunk.raw / 1000).toFixed(2)} kB, ${(chunk.gzip / 1000).toFixed(2)} kB gzip (loaded only when the editor opens)`,
	);
	const server = await serveBenchServer({
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: true,
		webDist: WEB_DIST,
		trustedOrigins: [BENCH_BASE_URL],
	});
	const { baseUrl } = server;
	let browser: Browser | undefined;
	try {
		const { cookie, headers } = await signUp(server, "mask-editor@example.com");
		const created = await server.app.request("/api/generations", {
			method: "POST",
			headers,
			body: JSON.stringify({ prompt: "A harbour at dawn", aspectRatio: "--ar 1:1", count: 1 }),
		});
		const { id } = (await created.json()) as { id: string };
		for (let attempt = 0; attempt < 600; attempt++) {
			const answer = await server.app.request(`/api/generations/${id}`, { headers: { cookie } });
			if (((await answer.json()) as { status: string }).status === "completed") break;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
		const samples: number[] = [];
		for (let run = 0; run < RUNS; run++) {
			// A fresh context each run: the editor's chunk is fetched as on its first opening.
			const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
			await context.addCookies(
				cookie.split("; ").map((pair) => {
					const [name = "", ...value] = pair.split("=");
					return { name, value: value.join("="), url: baseUrl };
				}),
			);
			const page = await context.newPage();
			await page.goto(`${baseUrl}/generations`);
			const started = Date.now();
			await page.goto(`${baseUrl}/edit?generation=${id}&image=0&tool=region`);
			const area = page.getByRole("application", { name: "Image and mask" });
			await area.waitFor();
			const box = await area.boundingBox();
			if (!box) throw new Error("the canvas is not laid out");
			await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
			await page.mouse.down();
			await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 2 });
			await page.mouse.up();
			// Drawn: the canvas holds the mask's magenta at the stroke.
			await page.waitForFunction(() => {
				const canvas = document.querySelector<HTMLCanvasElement>("[role=application] canvas");
				const context = canvas?.getContext("2d");
				if (!canvas || !context) return false;
				const x = Math.round(canvas.width / 2);
				const y = Math.round(canvas.height / 2);
				const [red = 0, green = 0, blue = 0] = context.getImageData(x, y, 1, 1).data;
				return red > 120 && blue > 60 && green < red * 0.6;
			});
			samples.push(Date.now() - started);
			await context.close();
		}
		const summary = summarize(samples);
		console.log(
			`opening the editor to the first stroke drawn: median ${formatMs(summary.median)}, max ${formatMs(summary.max)} over ${summary.count} cold opens`,
		);
	} finally {
		await browser?.close();
		await server.close();
	}
}

await main();
