// Benchmark of the ZIP writer alone (generations/files/generation-archive.ts, as the history's, a
// board's and the account export's archives use it), in this process: the same files read from
// disk one by one, then streamed as a ZIP from local storage, MB/s side by side. The target: the
// ZIP at no less than half the speed of reading the files. Run from the repository root:
//   node bench/run.mjs archive-speed
// Optional: FILES=400 FILE_KB=1024 RUNS=3

import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GenerationRow, StoredImage } from "../src/server/db/schema";
import { createGenerationArchive } from "../src/server/generations/files/generation-archive";
import { createLocalStorage } from "../src/server/storage/local-storage";
import { printTable } from "./bench-support";

const FILES = Number(process.env.FILES ?? 400);
const FILE_KB = Number(process.env.FILE_KB ?? 1024);
const RUNS = Number(process.env.RUNS ?? 3);
const MB = 1024 * 1024;

function rowOf(images: StoredImage[], index: number): GenerationRow {
	const now = new Date();
	return {
		id: randomUUID(),
		user_id: "bench",
		prompt: `bench ${index}`,
		aspect_ratio: "--ar 1:1",
		status: "completed",
		provider: "local",
		model_id: "local",
		model_label: "Offline engine",
		image_count: images.length,
		seed: null,
		negative_prompt: null,
		quality: null,
		price_per_image: null,
		stored_bytes: null,
		api_id: null,
		polling_url: null,
		images,
		error: null,
		status_message: null,
		progress_stage: null,
		progress_percent: null,
		progress_step: null,
		progress_steps: null,
		progress_position: null,
		preview_key: null,
		action: null,
		reference_strength: null,
		upscale_factor: null,
		reference_image: null,
		parent_generation_id: null,
		parent_image_index: null,
		from_upload: false,
		is_favorite: false,
		attempts: 1,
		lease_owner: null,
		lease_until: null,
		wait_began_at: null,
		deleted_at: null,
		deleted_by: null,
		region_mask: null,
		expand_frame: null,
		style_id: null,
		style_name: null,
		styled_prompt: null,
		styled_negative_prompt: null,
		original_prompt: null,
		created_at: now,
		started_at: now,
		completed_at: now,
		updated_at: now,
	};
}

const folder = await mkdtemp(path.join(tmpdir(), "atelier-archive-speed-"));
try {
	const storage = createLocalStorage(folder);
	const keys: string[] = [];
	const rows: GenerationRow[] = [];
	for (let generation = 0; generation < FILES / 4; generation++) {
		const images: StoredImage[] = [];
		for (let index = 0; index < 4; index++) {
			const key = `generations/${randomUUID()}/run/${index}.png`;
			// Random bytes: images do not compress, and neither does this.
			await storage.put(key, randomBytes(FILE_KB * 1024), "image/png");
			keys.push(key);
			images.push({
				key,
				contentType: "image/png",
				width: 512,
				height: 512,
				thumbnailKey: key,
				thumbnailWidth: 64,
				thumbnailHeight: 64,
			});
		}
		rows.push(rowOf(images, generation));
	}
	const totalMb = (keys.length * FILE_KB * 1024) / MB;
	const table: string[][] = [];
	for (let run = 0; run < RUNS; run++) {
		let started = performance.now();
		for (const key of keys) await readFile(path.join(folder, key));
		const readMs = performance.now() - started;
		started = performance.now();
		let zipBytes = 0;
		const reader = createGenerationArchive({ generations: rows, storage }).getReader();
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
			zipBytes += chunk.value.byteLength;
		}
		const zipMs = performance.now() - started;
		table.push([
			String(run + 1),
			`${(totalMb / (readMs / 1000)).toFixed(0)} MB/s`,
			`${(zipBytes / MB / (zipMs / 1000)).toFixed(0)} MB/s`,
			`${(readMs / zipMs).toFixed(2)}`,
		]);
	}
	console.log(`${keys.length} files of ${FILE_KB} kB (${totalMb.toFixed(0)} MB), ${RUNS} runs`);
	printTable(["run", "reading the files", "streaming the ZIP", "ZIP / reading"], table);
	console.log("Target: the ZIP at no less than half the speed of reading (ratio ≥ 0.50).");
} finally {
	await rm(folder, { recursive: true, force: true });
}
