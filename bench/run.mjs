// Runs the benchmarks in this folder: bundles each with esbuild into .tmp/bench/ (Node 20 cannot
// run TypeScript itself) and runs them one after another with node, output streamed as it comes.
//   node bench/run.mjs                      every benchmark
//   node bench/run.mjs history              just one (names: see BENCHMARKS)
//   node bench/run.mjs history local-engine several, in the order given

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const BENCHMARKS = [
	"history",
	"history-archive",
	"boards",
	"archive-speed",
	"trash-purge",
	"people",
	"completion-latency",
	"progress-latency",
	"local-engine",
	"history-browser",
	"web-bundle",
	"lighthouse",
	"first-paint",
	"results-images",
	"load",
	"fair-queue",
	"push-latency",
	"shared-page",
	"mask-editor",
	"recall",
	"batches",
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, ".tmp", "bench");

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length > 0) {
	console.error(`Unknown benchmark: ${unknown.join(", ")}. Known: ${BENCHMARKS.join(", ")}.`);
	process.exit(2);
}
const selected = requested.length > 0 ? requested : BENCHMARKS;

function runNode(file) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ["--enable-source-maps", file], {
			cwd: root,
			stdio: "inherit",
		});
		child.on("error", (error) => {
			console.error(error);
			resolve(1);
		});
		child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
	});
}

const failed = [];
for (const name of selected) {
	const outfile = path.join(outDir, `${name}.mjs`);
	console.log(`\n=== ${name} ===`);
	try {
		await build({
			entryPoints: [path.join(root, "bench", `${name}.ts`)],
			outfile,
			bundle: true,
			platform: "node",
			format: "esm",
			packages: "external",
			target: "node20",
			sourcemap: true,
			logLevel: "warning",
		});
	} catch {
		failed.push(name);
		continue;
	}
	const started = performance.now();
	const code = await runNode(outfile);
	console.log(
		`=== ${name}: ${code === 0 ? "done" : `FAILED (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(1)} s ===`,
	);
	if (code !== 0) failed.push(name);
}

if (failed.length > 0) {
	console.error(`\nFailed: ${failed.join(", ")}`);
	process.exitCode = 1;
}
