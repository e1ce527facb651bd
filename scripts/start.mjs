// `npm start`: installs dependencies and builds when needed, then runs the server. Uses only Node's
// own modules, so it works on a fresh clone before anything is installed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args) {
	const result = spawnSync(command, args, { stdio: "inherit" });
	if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(target) {
	if (!existsSync(target)) return 0;
	const stat = statSync(target);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(target, { withFileTypes: true, recursive: true })) {
		if (entry.isFile())
			newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
	}
	return newest;
}

const installedMarker = "node_modules/.package-lock.json";
if (!existsSync(installedMarker)) {
	console.log("Installing dependencies (first start)...");
	run(npm, ["ci", "--no-audit", "--no-fund"]);
} else if (statSync("package-lock.json").mtimeMs > statSync(installedMarker).mtimeMs) {
	console.log("Dependencies changed; installing...");
	run(npm, ["install", "--no-audit", "--no-fund"]);
}

const builtServer = "dist/server/main.js";
const builtWeb = "dist/web/index.html";
const sourcesChanged =
	Math.max(
		newestMtime("src"),
		newestMtime("package-lock.json"),
		newestMtime("vite.config.ts"),
		newestMtime("index.html"),
		// The build's own steps: prerendering the first screens, compressing assets.
		newestMtime("scripts/prerender-web.mjs"),
		newestMtime("scripts/compress-web.mjs"),
	) > Math.min(newestMtime(builtServer), newestMtime(builtWeb));
if (!existsSync(builtServer) || !existsSync(builtWeb) || sourcesChanged) {
	console.log("Building Atelier...");
	run(npm, ["run", "build"]);
}

// glibc gives each thread that allocates its own memory arena (up to 8 per core); image work on
// libuv's and libvips's threads then leaves memory spread over them. Two arenas are plenty
// (docs/decisions/010-embedded-memory.md).
const server = spawn(process.execPath, ["--enable-source-maps", builtServer], {
	stdio: "inherit",
	env: { MALLOC_ARENA_MAX: "2", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) {
	process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
