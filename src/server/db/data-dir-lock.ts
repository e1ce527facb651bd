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

// The kernel sets this task flag when a process starts to exit; it runs no more of its own code.
const PF_EXITING = 0x4;

type ProcessState = "running" | "exiting" | "gone";

/**
 * Whether `pid` is a process that can still touch the data folder. A process killed with SIGKILL
 * stays visible for a while (its memory is being torn down, then it is a zombie until its parent
 * reaps it); on Linux /proc tells it apart from a live one. Elsewhere any visible process counts
 * as running.
 */
export async function readProcessState(pid: number): Promise<ProcessState> {
	try {
		process.kill(pid, 0);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EPERM") return "gone";
	}
	let stat: string;
	try {
		stat = await readFile(`/proc/${pid}/stat`, "utf8");
	} catch (error) {
		// No /proc (not Linux): all we know is that the process exists.
		if ((error as NodeJS.ErrnoException).code === "ENOENT" && process.platform === "linux") {
			return "gone";
		}
		return "running";
	}
	// "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold spaces and parentheses.
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const state = fields[0];
	const flags = Number(fields[6]);
	if (state === "Z" || state === "X" || state === "x") return "exiting";
	if (Number.isInteger(flags) && (flags & PF_EXITING) !== 0) return "exiting";
	return "running";
}

/** The process id written in the data folder's lock, if there is one. */
export async function readDataDirLockOwner(dataDir: string): Promise<number | undefined> {
	const text = await readFile(path.join(dataDir, "server.lock"), "utf8").catch(() => "");
	const owner = Number.parseInt(text.trim(), 10);
	return Number.isInteger(owner) && owner > 0 ? owner : undefined;
}

/**
 * PGlite does not lock its data folder and two processes on one folder corrupt it, so the server
 * holds a lock file there. A lock left by a process that no longer runs (killed, or still being
 * torn down after a kill) is taken over, so a supervisor can restart the server at once.
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
			const owner = await readDataDirLockOwner(dataDir);
			if (
				owner !== undefined &&
				owner !== process.pid &&
				(await readProcessState(owner)) === "running"
			) {
				throw new DataDirLockedError(dataDir, owner);
			}
			await rm(lockPath, { force: true });
		}
	}
	throw new Error(`Could not lock the data folder ${path.resolve(dataDir)}`);
}
