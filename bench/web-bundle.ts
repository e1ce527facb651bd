// What the browser downloads for `/` before it can show the first screen: the JavaScript and CSS
// named by index.html (entry script, modulepreload links, stylesheets) and every chunk those
// import statically. Dynamic imports (lazy routes, the preview, toasts, the generation flow) are
// listed apart: they load on demand. Sizes are gzip level 9, as scripts/compress-web.mjs serves
// them, in kB of 1,000 bytes (as Vite prints them); brotli is shown for comparison.
//
//   node bench/run.mjs web-bundle                  builds into .tmp/bench/web-bundle, then measures
//   WEB_DIST=dist/web node bench/run.mjs web-bundle   measures an existing build instead
//
// Budget (docs/decisions/005-first-load-budget.md): at most 110.5 kB of JavaScript and 10 kB of CSS.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "vite";
import { printTable } from "./bench-support";

const JS_BUDGET_BYTES = 110_500;
const CSS_BUDGET_BYTES = 10_000;

// What a signed-in person's first visit to /generations loads on top of the first load: the
// history's lazy route and the header's user menu (both requested as soon as the page renders),
// with everything they import statically. Named by the start of their chunk's file name.
const HISTORY_SCREEN_CHUNKS = ["generations-route-", "user-menu-"];

const root = process.cwd();

type Measured = { file: string; raw: number; gzip: number; brotli: number };

async function measure(directory: string, file: string): Promise<Measured> {
	const body = await readFile(path.join(directory, file));
	return {
		file,
		raw: body.length,
		gzip: gzipSync(body, { level: 9 }).length,
		brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
	};
}

function formatKb(bytes: number): string {
	return `${(bytes / 1000).toFixed(2)} kB`;
}

/** `/assets/x.js` in index.html to `assets/x.js` in the build folder. */
function toBuildPath(url: string): string {
	return url.replace(/^\//, "");
}

/** The script, modulepreload and stylesheet URLs of index.html, in order. */
function readIndexHtml(html: string): { scripts: string[]; styles: string[] } {
	const scripts: string[] = [];
	const styles: string[] = [];
	for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
		const source = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
		if (!source || /^https?:/.test(source)) continue;
		if (tag.startsWith("<script") && /type="module"/.test(tag)) scripts.push(source);
		else if (/rel="modulepreload"/.test(tag)) scripts.push(source);
		else if (/rel="stylesheet"/.test(tag)) styles.push(source);
	}
	return { scripts, styles };
}

// Static imports in Vite's minified output: `import{a as b}from"./x.js"` and `import"./x.js"`.
// `import(` (dynamic) never matches: a quote or a name must follow `import`.
const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+\.js)["']\s*\)/g;
// Vite lists a lazy chunk's own dependencies (CSS included) in __vite__mapDeps.
const MAPPED_DEPENDENCY = /["'](assets\/[^"']+\.(?:js|css))["']/g;

function resolveImport(fromFile: string, specifier: string): string {
	return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
}

async function collectStaticGraph(directory: string, entries: string[]): Promise<string[]> {
	const seen = new Set<string>();
	const queue = [...entries];
	while (queue.length > 0) {
		const file = queue.shift();
		if (!file || seen.has(file)) continue;
		seen.add(file);
		const code = await readFile(path.join(directory, file), "utf8");
		for (const match of code.matchAll(STATIC_IMPORT)) {
			const specifier = match[1];
			if (specifier) queue.push(resolveImport(file, specifier));
		}
	}
	return [...seen];
}

async function collectLazyFiles(directory: string, firstLoad: Set<string>): Promise<string[]> {
	const lazy = new Set<string>();
	const scanned = new Set<string>();
	let toScan = [...firstLoad].filter((file) => file.endsWith(".js"));
	// Lazy chunks may load further chunks lazily (a route's dialog): follow them all.
	while (toScan.length > 0) {
		const found: string[] = [];
		for (const file of toScan) {
			scanned.add(file);
			const code = await readFile(path.join(directory, file), "utf8");
			for (const match of code.matchAll(DYNAMIC_IMPORT)) {
				if (match[1]) found.push(resolveImport(file, match[1]));
			}
			for (const match of code.matchAll(MAPPED_DEPENDENCY)) {
				if (match[1]) found.push(match[1]);
			}
			for (const match of code.matchAll(STATIC_IMPORT)) {
				// What a lazy chunk imports statically loads with it.
				if (match[1] && !firstLoad.has(file)) found.push(resolveImport(file, match[1]));
			}
		}
		for (const file of found) if (!firstLoad.has(file)) lazy.add(file);
		toScan = [...lazy].filter((file) => file.endsWith(".js") && !scanned.has(file));
	}
	return [...lazy].sort();
}

/** The files `entries` load with them, apart from the first load's: their static imports. */
async function collectChunkGraph(
	directory: string,
	entries: string[],
	firstLoad: Set<string>,
): Promise<string[]> {
	const graph = await collectStaticGraph(directory, entries);
	return graph.filter((file) => !firstLoad.has(file));
}

async function buildWebApp(): Promise<string> {
	const outDir = path.join(root, ".tmp", "bench", "web-bundle");
	console.log(`building the web app into ${path.relative(root, outDir)} ...`);
	const started = performance.now();
	await build({
		configFile: path.join(root, "vite.config.ts"),
		logLevel: "warn",
		build: { outDir, emptyOutDir: true },
	});
	console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
	return outDir;
}

function printGroup(title: string, rows: Measured[]): Measured {
	const total = rows.reduce(
		(sum, row) => ({
			file: "total",
			raw: sum.raw + row.raw,
			gzip: sum.gzip + row.gzip,
			brotli: sum.brotli + row.brotli,
		}),
		{ file: "total", raw: 0, gzip: 0, brotli: 0 },
	);
	console.log(`\n${title}`);
	printTable(
		["file", "raw", "gzip", "brotli"],
		[...rows, total].map((row) => [
			row.file,
			formatKb(row.raw),
			formatKb(row.gzip),
			formatKb(row.brotli),
		]),
	);
	return total;
}

async function main(): Promise<void> {
	const directory = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : await buildWebApp();
	const indexPath = path.join(directory, "index.html");
	if (!existsSync(indexPath)) throw new Error(`no index.html in ${directory}: build first`);
	const { scripts, styles } = readIndexHtml(await readFile(indexPath, "utf8"));

	const firstLoadScripts = await collectStaticGraph(directory, scripts.map(toBuildPath));
	const firstLoadStyles = styles.map(toBuildPath);
	const firstLoad = new Set([...firstLoadScripts, ...firstLoadStyles]);
	const lazyFiles = await collectLazyFiles(directory, firstLoad);

	const jsRows = await Promise.all(firstLoadScripts.map((file) => measure(directory, file)));
	const cssRows = await Promise.all(firstLoadStyles.map((file) => measure(directory, file)));
	const lazyRows = await Promise.all(lazyFiles.map((file) => measure(directory, file)));

	console.log(`measuring ${path.relative(root, directory) || "."}`);
	const js = printGroup("JavaScript loaded by / (index.html and its static imports)", jsRows);
	const css = printGroup("CSS loaded by /", cssRows);
	printGroup(
		"On demand, not part of the first load (lazy routes, preview, toasts, generation flow)",
		lazyRows.sort((left, right) => right.gzip - left.gzip),
	);

	const historyEntries = lazyFiles.filter((file) =>
		HISTORY_SCREEN_CHUNKS.some((prefix) => path.posix.basename(file).startsWith(prefix)),
	);
	const historyFiles = await collectChunkGraph(directory, historyEntries, firstLoad);
	const historyRows = await Promise.all(historyFiles.map((file) => measure(directory, file)));
	const history = printGroup(
		"/generations, signed in: loaded on top of the first load (the history route, the user menu)",
		historyRows.sort((left, right) => right.gzip - left.gzip),
	);
	console.log(
		`\n/generations: JS ${formatKb(js.gzip + history.gzip)} gzip in all (first load ${formatKb(js.gzip)} + ${formatKb(history.gzip)})`,
	);

	const isJsWithin = js.gzip <= JS_BUDGET_BYTES;
	const isCssWithin = css.gzip <= CSS_BUDGET_BYTES;
	console.log(
		`\nfirst load: JS ${formatKb(js.gzip)} gzip (budget ${formatKb(JS_BUDGET_BYTES)}) ${isJsWithin ? "OK" : "OVER"}, CSS ${formatKb(css.gzip)} gzip (budget ${formatKb(CSS_BUDGET_BYTES)}) ${isCssWithin ? "OK" : "OVER"}`,
	);
	if (!isJsWithin || !isCssWithin) process.exitCode = 1;
}

await main();
