import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

/** The Markdown the repository publishes: the README, every page under docs/ and bench's README. */
async function listDocumentationFiles(root: string): Promise<string[]> {
	const files = ["README.md", path.join("bench", "README.md")];
	async function walk(folder: string) {
		for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
			const relative = path.join(folder, entry.name);
			if (entry.isDirectory()) await walk(relative);
			else if (entry.name.endsWith(".md")) files.push(relative);
		}
	}
	await walk("docs");
	return files;
}

/** The lines of a Markdown text outside its fenced code blocks. */
function readProseLines(text: string): string[] {
	const lines: string[] = [];
	let isInFence = false;
	for (const line of text.split("\n")) {
		if (line.trimStart().startsWith("```")) {
			isInFence = !isInFence;
			continue;
		}
		if (!isInFence) lines.push(line);
	}
	return lines;
}

/** The anchors a page offers, as GitHub makes them from its headings, and its `<a id>`s. */
function listAnchors(text: string): Set<string> {
	const anchors = new Set<string>();
	const counts = new Map<string, number>();
	for (const line of readProseLines(text)) {
		for (const match of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(match[1] ?? "");
		const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
		if (heading === undefined) continue;
		const slug = heading
			.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
			.replace(/ /g, "-");
		const seen = counts.get(slug) ?? 0;
		counts.set(slug, seen + 1);
		anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
	}
	return anchors;
}

/** Every relative link (and image) of the files that names a missing file or heading. */
async function findBrokenLinks(root: string, files: string[]): Promise<string[]> {
	const anchorsByFile = new Map<string, Set<string>>();
	async function anchorsOf(file: string) {
		let anchors = anchorsByFile.get(file);
		if (anchors === undefined) {
			anchors = listAnchors(await readFile(path.join(root, file), "utf8"));
			anchorsByFile.set(file, anchors);
		}
		return anchors;
	}
	const broken: string[] = [];
	for (const file of files) {
		const text = await readFile(path.join(root, file), "utf8");
		for (const line of readProseLines(text)) {
			const prose = line.replace(/`[^`]*`/g, "``");
			for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
				const target = match[1] ?? "";
				if (/^[a-z]+:/i.test(target)) continue;
				const [pathPart = "", anchor] = target.split("#");
				const linked = pathPart === "" ? file : path.join(path.dirname(file), pathPart);
				const where = `${file}: ${target}`;
				const found = await stat(path.join(root, linked)).catch(() => null);
				if (found === null) {
					broken.push(`${where} (no such file)`);
					continue;
				}
				if (anchor === undefined) continue;
				if (!found.isFile() || !linked.endsWith(".md") || !(await anchorsOf(linked)).has(anchor)) {
					broken.push(`${where} (no such heading)`);
				}
			}
		}
	}
	return broken;
}

describe("documentation links", () => {
	it("every relative link in the README, docs/ and bench/README.md names a file and heading that exist", async () => {
		const files = await listDocumentationFiles(process.cwd());
		expect(files).toEqual(expect.arrayContaining(["README.md", "docs/configuration.md"]));
		expect(await findBrokenLinks(process.cwd(), files)).toEqual([]);
	});

	it("reports a link to a missing page, a missing heading and a missing image", async () => {
		const root = await mkdtemp(path.join(tmpdir(), "atelier-docs-links-"));
		onTestFinished(() => rm(root, { recursive: true, force: true }));
		await mkdir(path.join(root, "docs"));
		await writeFile(
			path.join(root, "docs", "page.md"),
			"# A page\n\n## `comfyui`: your own GPU\n\n## Node.js, memory\n",
		);
		await writeFile(
			path.join(root, "README.md"),
			[
				"[fine](docs/page.md#comfyui-your-own-gpu), [fine](docs/page.md#nodejs-memory)",
				"[gone](docs/gone.md), [moved](docs/page.md#configuration), ![shot](docs/shot.png)",
				"[here](#a-readme) `[code](docs/gone.md)` [web](https://example.com/x.md)",
				"```sh",
				"[in a fence](docs/gone.md)",
				"```",
				"# A README",
			].join("\n"),
		);
		expect(await findBrokenLinks(root, ["README.md", "docs/page.md"])).toEqual([
			"README.md: docs/gone.md (no such file)",
			"README.md: docs/page.md#configuration (no such heading)",
			"README.md: docs/shot.png (no such file)",
		]);
	});
});
