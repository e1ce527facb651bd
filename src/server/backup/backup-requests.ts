import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../logging/logger";
import { type SnapshotDeps, takeSnapshot } from "./take-snapshot";

/**
 * The folder inside the data folder through which `npm run backup` asks the running server for a
 * snapshot: only who may write the data folder can ask (docs/decisions/017-backups.md).
 */
export const BACKUP_REQUESTS_FOLDER = "backup-requests";
/** Written by the command into its own request folder to ask. */
export const REQUEST_FILE = "request.json";
/** Written by the server when the snapshot is complete: its summary. */
export const SNAPSHOT_FILE = "snapshot.json";
/** Written by the server when the snapshot failed: `{ message }`. */
export const FAILED_FILE = "failed.json";

/** How often the server looks for a request: a backup can wait that long, and a look costs little. */
const POLL_MS = 500;

async function exists(file: string): Promise<boolean> {
	return stat(file).then(
		() => true,
		() => false,
	);
}

/** Writes `value` as JSON where a reader sees all of it or nothing (with `mode`, when given). */
export async function writeJsonAtomically(
	file: string,
	value: unknown,
	mode?: number,
): Promise<void> {
	await writeFile(`${file}.tmp`, `${JSON.stringify(value, null, "\t")}\n`, { mode });
	await rename(`${file}.tmp`, file);
}

/** The request folders waiting for an answer. */
async function findPendingRequests(folder: string): Promise<string[]> {
	const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
	const pending: string[] = [];
	for (const entry of entries) {
		if (!entry.isDirectory()) continue;
		const requestFolder = path.join(folder, entry.name);
		if (!(await exists(path.join(requestFolder, REQUEST_FILE)))) continue;
		if (await exists(path.join(requestFolder, SNAPSHOT_FILE))) continue;
		if (await exists(path.join(requestFolder, FAILED_FILE))) continue;
		pending.push(requestFolder);
	}
	return pending;
}

/** Answers one request: the snapshot into its folder, then the summary (or the failure). */
async function answerRequest(
	deps: SnapshotDeps & { logger: Logger },
	requestFolder: string,
): Promise<void> {
	deps.logger.info("backup requested: taking a snapshot", { folder: requestFolder });
	try {
		const summary = await takeSnapshot(deps, requestFolder);
		await writeJsonAtomically(path.join(requestFolder, SNAPSHOT_FILE), summary);
		deps.logger.info("backup snapshot taken", { folder: requestFolder, counts: summary.counts });
	} catch (error) {
		deps.logger.error("backup snapshot failed", { folder: requestFolder, error });
		const message = error instanceof Error ? error.message : String(error);
		// The command may have given up and removed its folder meanwhile.
		await writeJsonAtomically(path.join(requestFolder, FAILED_FILE), { message }).catch(() => {});
	}
}

/**
 * Answers `npm run backup` while the embedded server runs: the command makes a folder under
 * `<data folder>/backup-requests/` with a request file, and the server writes the snapshot there.
 * Folders left by a previous run (a command or a server that died) are removed at the start.
 * Returns the stop, which waits for a snapshot under way.
 */
export async function serveBackupRequests(
	deps: SnapshotDeps & { dataDir: string; logger: Logger },
): Promise<{ stop(): Promise<void> }> {
	const folder = path.join(deps.dataDir, BACKUP_REQUESTS_FOLDER);
	await rm(folder, { recursive: true, force: true });
	await mkdir(folder, { recursive: true, mode: 0o700 });
	let current: Promise<void> = Promise.resolve();
	let isBusy = false;
	let isStopped = false;
	const look = async () => {
		for (const requestFolder of await findPendingRequests(folder)) {
			if (isStopped) return;
			await answerRequest(deps, requestFolder);
		}
	};
	const timer = setInterval(() => {
		if (isBusy || isStopped) return;
		isBusy = true;
		current = look()
			.catch((error) => deps.logger.warn("looking for backup requests failed", { error }))
			.finally(() => {
				isBusy = false;
			});
	}, POLL_MS);
	timer.unref();
	return {
		async stop() {
			isStopped = true;
			clearInterval(timer);
			await current;
		},
	};
}

/** Reads a JSON file the other side wrote, or undefined while it is not there. */
export async function readJsonIfPresent(file: string): Promise<unknown> {
	try {
		return JSON.parse(await readFile(file, "utf8"));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}
