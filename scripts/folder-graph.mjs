// Prints a tree's folder graph (which folder's production code imports which) and fails on any
// folder cycle. `npm run lint` runs it on src/server, src/shared and src/web; `--files` also names the
// files behind each edge, `--root <folder>` reads another tree than src/server, and `--top-level`
// counts each folder with the folders nested in it (src/shared's subjects: i18n/ with the
// message functions it generates).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rootArgument = process.argv.indexOf("--root");
const serverDir =
	rootArgument === -1
		? path.join(root, "src", "server")
		: path.resolve(process.argv[rootArgument + 1] ?? ".");
const showFiles = process.argv.includes("--files");
const topLevel = process.argv.includes("--top-level");
const treeName = path.relative(root, serverDir) || ".";

/** Production files only: tests and test support may reach anywhere. */
function listProductionFiles(dir) {
	const files = [];
	for (const name of readdirSync(dir)) {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) {
			if (name !== "testing") files.push(...listProductionFiles(full));
		} else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) {
			files.push(full);
		}
	}
	return files;
}

// Every static, type-only, re-exporting and dynamic import: a type import binds folders too.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function resolveImport(fromFile, specifier) {
	const base = path.resolve(path.dirname(fromFile), specifier);
	for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	}
	return undefined;
}

/**
 * A folder under the tree, nested folders by their full path (with `--top-level`, as part of the
 * top-level folder that holds them); a top-level file stands alone.
 */
function folderOf(file) {
	const relative = path.relative(serverDir, file);
	const folder = path.dirname(relative);
	if (folder === ".") return relative;
	return topLevel ? `${folder.split(path.sep)[0]}/` : `${folder}/`;
}

const edges = new Map();
for (const file of listProductionFiles(serverDir)) {
	const source = readFileSync(file, "utf8");
	for (const match of source.matchAll(IMPORT)) {
		const target = resolveImport(file, match[1]);
		if (!target?.startsWith(serverDir + path.sep)) continue;
		const from = folderOf(file);
		const to = folderOf(target);
		if (from === to) continue;
		if (!edges.has(from)) edges.set(from, new Map());
		const reasons = edges.get(from);
		if (!reasons.has(to)) reasons.set(to, new Set());
		reasons.get(to).add(`${path.relative(serverDir, file)} -> ${path.relative(serverDir, target)}`);
	}
}

/** Tarjan's strongly connected components: each one with more than one folder is a cycle. */
function findCycles(graph) {
	const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((to) => [...to.keys()])]);
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const cycles = [];
	let counter = 0;
	const visit = (node) => {
		index.set(node, counter);
		low.set(node, counter);
		counter++;
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node)?.keys() ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node), low.get(next)));
			} else if (onStack.has(next)) {
				low.set(node, Math.min(low.get(node), index.get(next)));
			}
		}
		if (low.get(node) === index.get(node)) {
			const component = [];
			let member;
			do {
				member = stack.pop();
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1) cycles.push(component.sort());
		}
	};
	for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
	return cycles;
}

for (const from of [...edges.keys()].sort()) {
	const targets = edges.get(from);
	console.log(`${from} -> ${[...targets.keys()].sort().join(", ")}`);
	if (showFiles) {
		for (const to of [...targets.keys()].sort()) {
			for (const reason of [...targets.get(to)].sort()) console.log(`    ${reason}`);
		}
	}
}

const cycles = findCycles(edges);
if (cycles.length > 0) {
	for (const cycle of cycles) {
		console.error(`\nFolder cycle in ${treeName}: ${cycle.join(", ")}`);
		for (const from of cycle) {
			for (const to of cycle) {
				for (const reason of edges.get(from)?.get(to) ?? []) console.error(`    ${reason}`);
			}
		}
	}
	process.exitCode = 1;
} else {
	console.log(`\nNo folder cycle in ${treeName}.`);
}
