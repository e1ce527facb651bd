import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, onTestFinished } from "vitest";

const run = promisify(execFile);

async function writeTree(files: Record<string, string>): Promise<string> {
	const root = await mkdtemp(path.join(tmpdir(), "folder-graph-"));
	onTestFinished(() => rm(root, { recursive: true, force: true }));
	for (const [file, text] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(root, file)), { recursive: true });
		await writeFile(path.join(root, file), text);
	}
	return root;
}

async function graph(root?: string): Promise<{ code: number; output: string }> {
	const args = ["scripts/folder-graph.mjs", ...(root ? ["--root", root] : [])];
	try {
		const { stdout, stderr } = await run(process.execPath, args);
		return { code: 0, output: stdout + stderr };
	} catch (error) {
		const failed = error as { code: number; stdout: string; stderr: string };
		return { code: failed.code, output: failed.stdout + failed.stderr };
	}
}

describe("scripts/folder-graph.mjs", () => {
	it("finds no folder cycle in the server", async () => {
		const { code, output } = await graph();
		expect(output).toContain("No folder cycle in src/server.");
		expect(code).toBe(0);
	});

	it("fails on a folder cycle closed by a type import, naming the files", async () => {
		const root = await writeTree({
			"db/database.ts":
				'import type { Deps } from "../generations/deps";\nexport type Db = Deps;\n',
			"generations/deps.ts":
				'import type { Db } from "../db/database";\nexport type Deps = { db: Db };\n',
			"generations/deps.test.ts": 'import "../http/app";\n',
			"http/app.ts": 'import "../generations/deps";\n',
		});
		const { code, output } = await graph(root);
		expect(code).toBe(1);
		// The tree is named as the command was given it (a folder of its own here).
		expect(output).toMatch(/Folder cycle in \S+: db\/, generations\//);
		expect(output).toContain("db/database.ts -> generations/deps.ts");
		// A test may reach anywhere: its import is no edge.
		expect(output).toContain("http/ -> generations/");
		expect(output).not.toContain("generations/ -> http/");
	});
});
