// Benchmark of the built-in offline image engine: wall time per set of 4 images, and image size.
// Run from the repository root:
//   npx esbuild bench/local-engine.ts --bundle --platform=node --format=esm --packages=external --outfile=.tmp/bench-local-engine.mjs && node .tmp/bench-local-engine.mjs
// Optional: RUNS=20 WARMUP=3 node .tmp/bench-local-engine.mjs

import { renderImages } from "../src/server/providers/local/render";
import { ASPECT_RATIOS } from "../src/shared/generations/aspect-ratios";

const PROMPTS = [
	"An anime boy with blue hair --niji 6",
	"A woman soldier in a black suit, portrait photoshoot",
	"An hourglass on a study desk, steampunk, intricate details, 8k",
	"a quiet forest lake at dawn",
	"neon cyberpunk city at night",
	"galaxy nebula with a ringed planet",
];

const WARMUP = Number(process.env.WARMUP ?? 3);
const RUNS = Number(process.env.RUNS ?? 10);

function percentile(sorted: readonly number[], share: number): number {
	const index = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1);
	return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function main(): Promise<void> {
	for (let run = 0; run < WARMUP; run++) {
		await renderImages({ prompt: `warm-up ${run}`, aspectRatio: "--ar 1:1", count: 4 });
	}
	const all: number[] = [];
	let totalBytes = 0;
	let totalImages = 0;
	let maxLoopDelay = 0;
	console.log(`runs per ratio: ${RUNS}, prompts cycled: ${PROMPTS.length}, 4 images per set`);
	for (const { value: aspectRatio } of ASPECT_RATIOS) {
		const times: number[] = [];
		let bytes = 0;
		for (let run = 0; run < RUNS; run++) {
			const prompt = PROMPTS[run % PROMPTS.length] ?? "";
			// A timer that should fire every 5 ms: how late it fires shows how long the event loop was busy.
			let last = performance.now();
			const ticker = setInterval(() => {
				const now = performance.now();
				maxLoopDelay = Math.max(maxLoopDelay, now - last - 5);
				last = now;
			}, 5);
			const started = performance.now();
			const images = await renderImages({ prompt, aspectRatio, count: 4 });
			times.push(performance.now() - started);
			clearInterval(ticker);
			for (const image of images) bytes += image.data.length;
			totalImages += images.length;
		}
		totalBytes += bytes;
		all.push(...times);
		const sorted = [...times].sort((a, b) => a - b);
		console.log(
			`${aspectRatio.padEnd(9)} median ${percentile(sorted, 0.5).toFixed(0).padStart(5)} ms  p95 ${percentile(sorted, 0.95).toFixed(0).padStart(5)} ms  ${(bytes / (RUNS * 4) / 1024).toFixed(0).padStart(4)} KiB/image`,
		);
	}
	const sorted = [...all].sort((a, b) => a - b);
	console.log(
		`all       median ${percentile(sorted, 0.5).toFixed(0).padStart(5)} ms  p95 ${percentile(sorted, 0.95).toFixed(0).padStart(5)} ms  ${(totalBytes / totalImages / 1024).toFixed(0).padStart(4)} KiB/image (${(totalBytes / totalImages).toFixed(0)} bytes)`,
	);
	console.log(`longest event-loop stall while rendering: ${maxLoopDelay.toFixed(1)} ms`);
}

await main();
