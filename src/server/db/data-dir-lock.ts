import { mkdir, open, readFile, rm } from "node:fs/promises";
import path from "node:path";

export class DataDirLockedError extends Error {
	constructor(dataDir: string, pid: number) {
		super(
			`Another Atelier server (process ${pid}) is already using the data folder ${path.resolve(dataDir)}. ` +
				"Stop it first, or set DATA_DIR to another folder.",
		);
		this.name = "DataDirLockedError";
	}
}

function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * PGlite does not lock its data folder and two processes on one folder corrupt it, so the server
 * holds a lock file there. A lock left by a process that no longer runs (killed) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
	await mkdir(dataDir, { recursive: true });
	const lockPath = path.join(dataDir, "server.lock");
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			const handle = await open(lockPath, "wx");
			await handle.writeFile(String(process.pid));
			await handle.close();
			let released = false;
			return {
				async release() {
					if (released) return;
					released = true;
					await rm(lockPath, { force: true });
				},
			};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			const owner = Number.parseInt((await readFile(lockPath, "utf8").catch(() => "")).trim(), 10);
			if (Number.isInteger(owner) && owner !== process.pid && isProcessAlive(owner)) {
				throw new DataDirLockedError(dataDir, owner);
			}
			await rm(lockPath, { force: true });
		}
	}
	throw new Error(`Could not lock the data folder ${path.resolve(dataDir)}`);
}
