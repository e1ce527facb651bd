// Benchmark of the Trash's purge (decision 031): how long purgeTrash takes to delete for good
// 1,000 generations past their TRASH_DAYS, each with four images and their thumbnails in local
// storage, on embedded PGlite and on PostgreSQL; and that nothing of them is left in storage.
// Run from the repository root (see bench/README.md):
//   node bench/run.mjs trash-purge
// Optional: GENERATIONS=1000 FILE_KB=16 DATABASES=pglite,postgres BENCH_DATABASE_URL=postgres://...

import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "../src/server/db/database";
import { purgeTrash } from "../src/server/generations/trash/trash";
import { createSilentLogger } from "../src/server/logging/logger";
import { catalogueOfOne } from "../src/server/models/model-catalogue";
import { createLocalProvider } from "../src/server/providers/local/local-provider";
import { createLocalStorage } from "../src/server/storage/local-storage";
import {
	createBenchServer,
	describeMachine,
	formatMs,
	openBenchPglite,
	printTable,
	signUp,
	startBenchPostgres,
} from "./bench-support";
import { seedHistory } from "./history-seed";

const GENERATIONS = Number(process.env.GENERATIONS ?? 1_000);
const FILE_KB = Number(process.env.FILE_KB ?? 16);
const DATABASES = (process.env.DATABASES ?? "pglite,postgres").split(",");
const TRASH_DAYS = 30;

type Result = { database: string; purged: number; files: number; ms: number; left: number };

async function countFiles(folder: string): Promise<number> {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true });
	return entries.filter((entry) => entry.isFile()).length;
}

async function benchDatabase(label: string, database: Database): Promise<Result> {
	const server = await createBenchServer({
		database,
		provider: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	const folder = await mkdtemp(path.join(tmpdir(), "atelier-purge-bench-"));
	try {
		const person = await signUp(server, "purge-person@example.com");
		await seedHistory(database, person.userId, GENERATIONS);
		// Every stored object the seeded rows name: four images and their thumbnails each.
		const storage = createLocalStorage(folder);
		const { rows } = await database.pool.query<{ key: string; thumbnail_key: string }>(
			`select image->>'key' as key, image->>'thumbnailKey' as thumbnail_key
			from generations, jsonb_array_elements(images) as image where user_id = $1`,
			[person.userId],
		);
		const image = randomBytes(FILE_KB * 1024);
		const thumbnail = image.subarray(0, Math.ceil(image.length / 8));
		for (const row of rows) {
			await storage.put(row.key, image, "image/png");
			await storage.put(row.thumbnail_key, thumbnail, "image/webp");
		}
		const files = await countFiles(folder);
		// All of them in the Trash for longer than TRASH_DAYS, as the purge finds them.
		await database.pool.query(
			`update generations set deleted_at = now() - interval '${TRASH_DAYS + 1} days', deleted_by = user_id
			where user_id = $1`,
			[person.userId],
		);
		const deps = {
			database,
			storage,
			models: catalogueOfOne(createLocalProvider({ delayMs: 0 })),
			logger: createSilentLogger(),
			limits: { maxActivePerUser: 3, dailyLimitPerUser: 0, trashDays: TRASH_DAYS },
		};
		const started = performance.now();
		const purged = await purgeTrash(deps);
		const ms = performance.now() - started;
		const left = await countFiles(folder);
		console.log(
			`[${label}] purged ${purged} generations and ${files - left} files in ${formatMs(ms)}`,
		);
		return { database: label, purged, files, ms, left };
	} finally {
		await rm(folder, { recursive: true, force: true });
		await server.close();
	}
}

async function main(): Promise<void> {
	console.log(
		`Trash purge benchmark: ${GENERATIONS} generations past ${TRASH_DAYS} days in the Trash, four images of ${FILE_KB} kB and their thumbnails each, in local storage.`,
	);
	console.log(`Machine: ${describeMachine()}`);
	const results: Result[] = [];
	if (DATABASES.includes("pglite")) {
		results.push(await benchDatabase("PGlite (in-memory)", await openBenchPglite()));
	}
	const postgres = DATABASES.includes("postgres") ? await startBenchPostgres() : undefined;
	if (postgres) {
		try {
			results.push(await benchDatabase("PostgreSQL", await postgres.openDatabase()));
		} finally {
			await postgres.stop();
		}
	}
	console.log("");
	printTable(
		["database", "generations purged", "files before", "files left", "purge", "per generation"],
		results.map((result) => [
			result.database,
			String(result.purged),
			String(result.files),
			String(result.left),
			formatMs(result.ms),
			formatMs(result.ms / Math.max(result.purged, 1)),
		]),
		2,
	);
	if (results.some((result) => result.left > 0 || result.purged !== GENERATIONS)) {
		console.error("The purge left generations or files behind.");
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
