import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

type AppServer = {
	baseUrl: string;
	dataDir: string;
	process: ChildProcess;
	output(): string;
	stop(signal?: NodeJS.Signals): Promise<void>;
};

/** Runs the built server (dist/server/main.js) as its own process, as `npm start` does. */
export async function startAppServer(options: {
	port: number;
	dataDir?: string;
	env?: Record<string, string>;
}): Promise<AppServer> {
	const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "atelier-e2e-")));
	const baseUrl = `http://localhost:${options.port}`;
	const child = spawn(process.execPath, ["dist/server/main.js"], {
		env: {
			PATH: process.env.PATH ?? "",
			PORT: String(options.port),
			HOST: "127.0.0.1",
			BASE_URL: baseUrl,
			DATA_DIR: dataDir,
			LOG_LEVEL: "warn",
			// No load balancer watches a test's server: SIGTERM need not wait for one.
			READY_DRAIN_MS: "0",
			...options.env,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	child.stdout?.on("data", (chunk) => {
		output += chunk;
	});
	child.stderr?.on("data", (chunk) => {
		output += chunk;
	});
	// A new embedded database's migrations take over a minute on two cores other work keeps busy.
	const deadline = Date.now() + 120_000;
	for (;;) {
		if (child.exitCode !== null) {
			throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
		}
		const healthy = await fetch(`http://127.0.0.1:${options.port}/api/health`)
			.then((response) => response.ok)
			.catch(() => false);
		if (healthy) break;
		if (Date.now() > deadline) {
			child.kill("SIGKILL");
			throw new Error(`the server did not become healthy:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return {
		baseUrl,
		dataDir,
		process: child,
		output: () => output,
		async stop(signal = "SIGTERM") {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((resolve) => child.once("exit", resolve));
			child.kill(signal);
			await exited;
		},
	};
}

export async function removeDataDir(dataDir: string): Promise<void> {
	await rm(dataDir, { recursive: true, force: true });
}
