import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, readProcessState } from "./data-dir-lock";

async function waitUntil(check: () => Promise<boolean>, what: string) {
	const deadline = Date.now() + 10_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/**
 * A node process whose parent never reaps it (the shell execs `sleep`): killed, it stays a zombie,
 * the state a process killed with SIGKILL is in until its memory is torn down and it is reaped.
 */
async function spawnUnreapedNode(): Promise<{ pid: number; parent: ChildProcess }> {
	const parent = spawn(
		"sh",
		["-c", '"$0" -e "setInterval(() => {}, 1000)" & echo $!; exec sleep 60', process.execPath],
		{ stdio: ["ignore", "pipe", "ignore"] },
	);
	const pid = await new Promise<number>((resolve, reject) => {
		parent.stdout?.once("data", (chunk) => resolve(Number.parseInt(String(chunk), 10)));
		parent.once("error", reject);
	});
	return { pid, parent };
}

describe("lockDataDir", () => {
	it("refuses a folder another running process holds", async () => {
		const directory = await mkdtemp(path.join(tmpdir(), "atelier-lock-"));
		const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
		try {
			await writeFile(path.join(directory, "server.lock"), String(other.pid));
			await expect(lockDataDir(directory)).rejects.toBeInstanceOf(DataDirLockedError);
			await expect(lockDataDir(directory)).rejects.toThrow(/already using the data folder/);
		} finally {
			other.kill("SIGKILL");
		}
	});

	it("refuses a folder held by a stopped (paused) process", async () => {
		const directory = await mkdtemp(path.join(tmpdir(), "atelier-lock-"));
		const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
		try {
			other.kill("SIGSTOP");
			await writeFile(path.join(directory, "server.lock"), String(other.pid));
			await expect(lockDataDir(directory)).rejects.toBeInstanceOf(DataDirLockedError);
		} finally {
			other.kill("SIGKILL");
		}
	});

	it("takes over a lock left by a process that was killed, and releases it", async () => {
		const directory = await mkdtemp(path.join(tmpdir(), "atelier-lock-"));
		const dead = spawn(process.execPath, ["-e", ""]);
		await new Promise((resolve) => dead.once("exit", resolve));
		await writeFile(path.join(directory, "server.lock"), String(dead.pid));

		const lock = await lockDataDir(directory);
		expect(await readFile(path.join(directory, "server.lock"), "utf8")).toBe(String(process.pid));
		await lock.release();
		const again = await lockDataDir(directory);
		await again.release();
	});

	it.runIf(process.platform === "linux")(
		"takes over a lock whose owner was killed but is not reaped yet",
		async () => {
			const directory = await mkdtemp(path.join(tmpdir(), "atelier-lock-"));
			const { pid, parent } = await spawnUnreapedNode();
			try {
				await writeFile(path.join(directory, "server.lock"), String(pid));
				await expect(lockDataDir(directory)).rejects.toBeInstanceOf(DataDirLockedError);

				process.kill(pid, "SIGKILL");
				await waitUntil(async () => (await readProcessState(pid)) !== "running", "the kill");
				// Still there for `kill -0`: the process is a zombie, not gone.
				expect(() => process.kill(pid, 0)).not.toThrow();

				const lock = await lockDataDir(directory);
				expect(await readFile(path.join(directory, "server.lock"), "utf8")).toBe(
					String(process.pid),
				);
				await lock.release();
			} finally {
				parent.kill("SIGKILL");
			}
		},
	);
});
