// Benchmark of the history's ZIP download: POST /api/generations/archive for 200 generations (800
// original images) over real HTTP to a client in another process, measuring throughput against
// reading the same files directly, and how much the server process's memory grows while it streams.
// Twice: with the offline engine's JPEGs (about 50 kB) and with 1 MB PNGs, the size hosted
// providers return. Targets: at least half the speed of reading the files, memory growing less than 50 MB.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs history-archive
// Optional: GENERATIONS=200 RUNS=3 VARIANTS=6 PNG_SIDE=600

import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import sharp from "sharp";
import type { StoredImage } from "../src/server/db/schema";
import { createSilentLogger } from "../src/server/logging/logger";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { renderImages } from "../src/server/providers/local/render";
import { assembleServer } from "../src/server/server";
import { createLocalStorage } from "../src/server/storage/local-storage";
import { ASPECT_RATIOS } from "../src/shared/generations/aspect-ratios";
import {
	BENCH_BASE_URL,
	createBenchSettings,
	openBenchPglite,
	printTable,
	signUp,
	summarize,
} from "./bench-support";

const GENERATIONS = Number(process.env.GENERATIONS ?? 200);
const RUNS = Number(process.env.RUNS ?? 3);
const VARIANTS = Number(process.env.VARIANTS ?? 6);
// Random pixels do not compress: a PNG of 600 x 600 is about 1 MB.
const PNG_SIDE = Number(process.env.PNG_SIDE ?? 600);
const IMAGES_PER_GENERATION = 4;
const MEMORY_TARGET_MB = 50;
const MB = 1024 * 1024;

type Variant = { files: string[]; images: Array<Omit<StoredImage, "key" | "thumbnailKey">> };
type ImageKind = "engine" | "png";

/** One image set as files: the offline engine's (one aspect ratio per variant), or random-pixel PNGs. */
async function renderVariant(kind: ImageKind, index: number, folder: string): Promise<Variant> {
	const option = ASPECT_RATIOS[index % ASPECT_RATIOS.length] ?? ASPECT_RATIOS[0];
	const rendered =
		kind === "engine"
			? await renderImages({
					prompt: `a lighthouse at dusk, variant ${index}`,
					aspectRatio: option.value,
					count: IMAGES_PER_GENERATION,
				})
			: await Promise.all(
					Array.from({ length: IMAGES_PER_GENERATION }, async () => ({
						data: await sharp(randomBytes(PNG_SIDE * PNG_SIDE * 3), {
							raw: { width: PNG_SIDE, height: PNG_SIDE, channels: 3 },
						})
							.png({ compressionLevel: 1 })
							.toBuffer(),
						contentType: "image/png",
						width: PNG_SIDE,
						height: PNG_SIDE,
					})),
				);
	const files: string[] = [];
	const images: Variant["images"] = [];
	for (const [imageIndex, image] of rendered.entries()) {
		const extension = image.contentType === "image/png" ? "png" : "jpg";
		const file = path.join(folder, `${kind}-${index}-${imageIndex}.${extension}`);
		await writeFile(file, image.data);
		files.push(file);
		images.push({
			contentType: image.contentType,
			width: image.width,
			height: image.height,
			thumbnailWidth: 384,
			thumbnailHeight: 384,
		});
	}
	return { files, images };
}

type Sample = { rss: number; heapUsed: number; external: number };

function sampleMemory(): Sample {
	const usage = process.memoryUsage();
	return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external };
}

// The client runs in a process of its own, so its buffers and CPU are not counted as the server's.
// It reads the body as it comes, keeps the last kilobyte or so only (in as many chunks as it came:
// a ZIP's end may arrive a few bytes at a time), and reports the ZIP's entry count from its
// end-of-central-directory record.
const CLIENT_SCRIPT = `
const http = require("node:http");
const [port, cookie, origin] = process.argv.slice(1);
let body = "";
process.stdin.on("data", (chunk) => { body += chunk; });
process.stdin.on("end", () => {
	const started = performance.now();
	const request = http.request({ host: "127.0.0.1", port: Number(port), method: "POST", path: "/api/generations/archive",
		headers: { cookie, origin, "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (response) => {
		let bytes = 0;
		const tailChunks = [];
		let tailBytes = 0;
		response.on("data", (chunk) => {
			bytes += chunk.length;
			tailChunks.push(chunk);
			tailBytes += chunk.length;
			while (tailChunks.length > 1 && tailBytes - tailChunks[0].length >= 1024) tailBytes -= tailChunks.shift().length;
		});
		const finish = (outcome) => {
			const tail = Buffer.concat(tailChunks);
			const at = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
			const entries = at < 0 ? -1 : tail.readUInt16LE(at + 10);
			process.stdout.write(JSON.stringify({ outcome, status: response.statusCode, bytes, entries, milliseconds: performance.now() - started }));
		};
		response.on("end", () => finish("complete"));
		response.on("aborted", () => finish("aborted"));
	});
	request.on("error", (error) => { process.stderr.write(String(error)); process.exit(1); });
	request.end(body);
});
`;

type DownloadOutcome = {
	outcome: "complete" | "aborted";
	status: number;
	bytes: number;
	entries: number;
	milliseconds: number;
};

/** POSTs the archive request from another process and waits for its report. */
async function downloadArchive(
	port: number,
	cookie: string,
	ids: readonly string[],
): Promise<DownloadOutcome> {
	const child = spawn(
		process.execPath,
		["-e", CLIENT_SCRIPT, String(port), cookie, BENCH_BASE_URL],
		{
			stdio: ["pipe", "pipe", "inherit"],
		},
	);
	let output = "";
	child.stdout.on("data", (chunk: Buffer) => {
		output += chunk.toString();
	});
	child.stdin.end(JSON.stringify({ ids }));
	const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
	if (code !== 0) throw new Error(`the download client exited with ${code}`);
	return JSON.parse(output) as DownloadOutcome;
}

type KindResult = {
	kind: ImageKind;
	megabytes: number;
	readMbPerSecond: number;
	zipMbPerSecond: number;
	largestGrowthMb: number;
};

/** Seeds GENERATIONS generations of one image kind and times their archive RUNS times. */
async function benchKind(
	kind: ImageKind,
	context: {
		database: Awaited<ReturnType<typeof openBenchPglite>>;
		imagesDir: string;
		variantsDir: string;
		port: number;
		person: { userId: string; cookie: string };
	},
): Promise<KindResult> {
	const variants: Variant[] = [];
	for (let index = 0; index < VARIANTS; index++) {
		variants.push(await renderVariant(kind, index, context.variantsDir));
	}
	const ids = Array.from({ length: GENERATIONS }, () => randomUUID());
	const rows = [];
	const allFiles: string[] = [];
	for (const [index, id] of ids.entries()) {
		const variant = variants[index % variants.length];
		if (!variant) throw new Error("no variant");
		const run = randomUUID();
		const folder = path.join(context.imagesDir, "generations", id, run);
		await mkdir(folder, { recursive: true });
		const images: StoredImage[] = [];
		for (const [imageIndex, file] of variant.files.entries()) {
			// A hard link: every key is a file of its own, without writing the bytes again.
			const name = `${imageIndex}${path.extname(file)}`;
			await link(file, path.join(folder, name));
			allFiles.push(path.join(folder, name));
			const image = variant.images[imageIndex];
			if (!image) throw new Error("no image");
			images.push({
				...image,
				key: `generations/${id}/${run}/${name}`,
				thumbnailKey: `generations/${id}/${run}/${imageIndex}-thumb.webp`,
			});
		}
		rows.push({
			id,
			user_id: context.person.userId,
			prompt: `a lighthouse at dusk, number ${index}`,
			aspect_ratio: ASPECT_RATIOS[index % ASPECT_RATIOS.length]?.value ?? "--ar 1:1",
			status: "completed" as const,
			provider: "local",
			model_id: "local",
			model_label: "Offline engine",
			api_id: `local_${id}`,
			polling_url: `/api/generations/${id}/status`,
			images: JSON.stringify(images),
			error: null,
			lease_owner: null,
			lease_until: null,
			created_at: new Date(Date.now() - index * 60_000),
			updated_at: new Date(),
			started_at: null,
			completed_at: new Date(),
		});
	}
	await context.database.db.insertInto("generations").values(rows).execute();

	// The reference: the same files read one after another, as fast as the disk (or its cache) gives them.
	const readStarted = performance.now();
	let fileBytes = 0;
	for (const file of allFiles) fileBytes += (await readFile(file)).length;
	const readMs = performance.now() - readStarted;
	const megabytes = fileBytes / MB;
	const readMbPerSecond = megabytes / (readMs / 1000);
	console.log(
		`[${kind}] ${GENERATIONS} generations, ${allFiles.length} images, ${megabytes.toFixed(0)} MB (hard links to ${VARIANTS} sets); ` +
			`reading the files one by one: ${readMs.toFixed(0)} ms (${readMbPerSecond.toFixed(0)} MB/s)`,
	);

	// One unmeasured download of a few generations warms the code paths.
	await downloadArchive(context.port, context.person.cookie, ids.slice(0, 5));
	const speeds: number[] = [];
	let largestGrowthMb = 0;
	for (let run = 0; run < RUNS; run++) {
		const baseline = sampleMemory();
		let peak = baseline;
		const sampler = setInterval(() => {
			const sample = sampleMemory();
			peak = {
				rss: Math.max(peak.rss, sample.rss),
				heapUsed: Math.max(peak.heapUsed, sample.heapUsed),
				external: Math.max(peak.external, sample.external),
			};
		}, 5);
		const download = await downloadArchive(context.port, context.person.cookie, ids);
		clearInterval(sampler);
		const expected = allFiles.length + GENERATIONS;
		if (download.status !== 200 || download.outcome !== "complete") {
			throw new Error(`the archive answered ${download.status}, ${download.outcome}`);
		}
		if (download.entries !== expected) {
			throw new Error(`${download.entries} entries in the ZIP, expected ${expected}`);
		}
		const speed = download.bytes / MB / (download.milliseconds / 1000);
		const growth = (peak.rss - baseline.rss) / MB;
		speeds.push(speed);
		largestGrowthMb = Math.max(largestGrowthMb, growth);
		console.log(
			`  run ${run + 1}: ${(download.bytes / MB).toFixed(0)} MB, ${download.entries} entries in ${download.milliseconds.toFixed(0)} ms (${speed.toFixed(0)} MB/s); ` +
				`server RSS ${(baseline.rss / MB).toFixed(0)} → peak ${(peak.rss / MB).toFixed(0)} MB (+${growth.toFixed(1)}), ` +
				`heap +${((peak.heapUsed - baseline.heapUsed) / MB).toFixed(1)} MB, external +${((peak.external - baseline.external) / MB).toFixed(1)} MB`,
		);
	}
	return {
		kind,
		megabytes,
		readMbPerSecond,
		zipMbPerSecond: summarize(speeds).median,
		largestGrowthMb,
	};
}

async function main(): Promise<void> {
	const workDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-archive-"));
	const imagesDir = path.join(workDir, "images");
	const variantsDir = path.join(workDir, "variants");
	await mkdir(variantsDir, { recursive: true });
	const database = await openBenchPglite();
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		settings: createBenchSettings(),
		storage: createLocalStorage(imagesDir),
		models: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	const http = serve({ fetch: server.app.fetch, port: 0, hostname: "127.0.0.1" });
	await new Promise<void>((resolve) => http.once("listening", () => resolve()));
	const { port } = http.address() as AddressInfo;
	try {
		console.log(
			`Archive benchmark: POST /api/generations/archive with ${GENERATIONS} ids over HTTP on 127.0.0.1, the client in another process; ${RUNS} runs per image kind.`,
		);
		const person = await signUp(server, "archive-person@example.com");
		const context = { database, imagesDir, variantsDir, port, person };
		const results = [await benchKind("engine", context), await benchKind("png", context)];
		console.log("");
		printTable(
			[
				"images",
				"archive",
				"ZIP streamed (median)",
				"files read directly",
				"server RSS growth (largest)",
				`target < ${MEMORY_TARGET_MB} MB`,
			],
			results.map((result) => [
				result.kind === "engine" ? "offline engine JPEGs" : `${PNG_SIDE}x${PNG_SIDE} PNGs`,
				`${result.megabytes.toFixed(0)} MB`,
				`${result.zipMbPerSecond.toFixed(0)} MB/s`,
				`${result.readMbPerSecond.toFixed(0)} MB/s`,
				`+${result.largestGrowthMb.toFixed(1)} MB`,
				result.largestGrowthMb < MEMORY_TARGET_MB ? "met" : "MISSED",
			]),
			1,
		);
		if (results.some((result) => result.largestGrowthMb >= MEMORY_TARGET_MB)) process.exitCode = 1;
	} finally {
		await new Promise((resolve) => http.close(resolve));
		await server.stop();
		await database.close();
		await rm(workDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
