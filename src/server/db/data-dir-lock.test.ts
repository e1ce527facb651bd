import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./data-dir-lock";

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
});
