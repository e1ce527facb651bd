import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readProcessState } from "./data-dir-lock";

const PORT = 4393;
const PASSWORD = "secret12";

type Started = { child: ChildProcess; output: () => string };

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch((error: unknown) => {
			if (error instanceof Error && error.message.startsWith("exited:")) throw error;
			return undefined;
		});
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

function killQuietly(pid: number | undefined) {
	if (pid === undefined) return;
	try {
		process.kill(pid, "SIGKILL");
	} catch {
		// Already gone.
	}
}

describe.runIf(process.platform === "linux")("restarting the embedded server", () => {
	let workDir: string;
	let serverBundle: string;

	beforeAll(async () => {
		// Inside the project, so the bundle resolves its dependencies from node_modules.
		await mkdir(".tmp", { recursive: true });
		workDir = await mkdtemp(path.join(".tmp", "restart-after-kill-"));
		serverBundle = path.join(workDir, "server", "main.js");
		// The real server entry point, bundled as `npm run build` does; the web app is not needed.
		await build({
			entryPoints: ["src/server/main.ts"],
			outfile: serverBundle,
			bundle: true,
			platform: "node",
			format: "esm",
			packages: "external",
			logLevel: "error",
		});
	});
	afterAll(async () => {
		await rm(workDir, { recursive: true, force: true });
	});

	const serverEnv = (dataDir: string, port: number) => ({
		PATH: process.env.PATH ?? "",
		NODE_ENV: "development",
		PORT: String(port),
		HOST: "127.0.0.1",
		BASE_URL: `http://localhost:${port}`,
		DATA_DIR: dataDir,
		AUTH_RATE_LIMIT_ENABLED: "false",
		LOG_LEVEL: "warn",
	});

	function collectOutput(child: ChildProcess): () => string {
		let output = "";
		child.stdout?.on("data", (chunk) => {
			output += chunk;
		});
		child.stderr?.on("data", (chunk) => {
			output += chunk;
		});
		return () => output;
	}

	/** The built server as a child of this process (reaped as soon as it exits). */
	function startServer(dataDir: string, port: number): Started {
		const child = spawn(process.execPath, [serverBundle], {
			cwd: process.cwd(),
			env: serverEnv(dataDir, port),
			stdio: ["ignore", "pipe", "pipe"],
		});
		return { child, output: collectOutput(child) };
	}

	/**
	 * The built server under a shell that then becomes `sleep` and never reaps it. Killed, the server
	 * stays visible, as a killed server does until its memory is torn down and its supervisor reaps
	 * it (over a second for a large process on a busy machine); here that window lasts until the
	 * shell is killed, so a restart always falls inside it.
	 */
	async function startUnreapedServer(dataDir: string, port: number) {
		const shell = spawn(
			"sh",
			["-c", '"$0" "$1" & echo "pid=$!"; exec sleep 300', process.execPath, serverBundle],
			{ cwd: process.cwd(), env: serverEnv(dataDir, port), stdio: ["ignore", "pipe", "pipe"] },
		);
		const output = collectOutput(shell);
		const pid = await waitFor("the server's process id", async () => {
			const match = /pid=(\d+)/.exec(output());
			return match ? Number(match[1]) : undefined;
		});
		return { shell, pid, output };
	}

	async function waitUntilHealthy(port: number, started?: Started) {
		await waitFor("the server to answer", async () => {
			if (started && started.child.exitCode !== null)
				throw new Error(`exited: ${started.output()}`);
			const response = await fetch(`http://127.0.0.1:${port}/api/health`);
			return response.ok ? true : undefined;
		});
	}

	it("starts at once after the previous server was killed with SIGKILL, with its data", async () => {
		const dataDir = path.join(workDir, "data-killed");
		const origin = `http://localhost:${PORT}`;
		const first = await startUnreapedServer(dataDir, PORT);
		let second: Started | undefined;
		try {
			await waitUntilHealthy(PORT);
			const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
				method: "POST",
				headers: { "content-type": "application/json", origin },
				body: JSON.stringify({ email: "killed@example.com", password: PASSWORD, name: "k" }),
			});
			expect(signUp.status).toBe(200);

			process.kill(first.pid, "SIGKILL");
			await waitFor("the kill to land", async () =>
				(await readProcessState(first.pid)) === "running" ? undefined : true,
			);
			// A supervisor restarts at once, while the killed process is still being torn down. (Its
			// state is read at the restart, not once the new server answers: on a loaded machine the
			// new one can take longer to start than the old one takes to vanish.)
			const stateAtRestart = await readProcessState(first.pid);
			second = startServer(dataDir, PORT);
			expect(stateAtRestart).toBe("exiting");
			await waitUntilHealthy(PORT, second);

			const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
				method: "POST",
				headers: { "content-type": "application/json", origin },
				body: JSON.stringify({ email: "killed@example.com", password: PASSWORD }),
			});
			expect(signIn.status).toBe(200);
		} finally {
			killQuietly(second?.child.pid);
			killQuietly(first.pid);
			first.shell.kill("SIGKILL");
		}
	}, 120_000);

	it("still refuses a second server while the first one runs", async () => {
		const dataDir = path.join(workDir, "data-live");
		const first = startServer(dataDir, PORT + 1);
		try {
			await waitUntilHealthy(PORT + 1, first);
			const second = startServer(dataDir, PORT + 2);
			const code = await new Promise((resolve) => second.child.once("exit", resolve));
			expect(code).toBe(1);
			expect(second.output()).toContain(
				`Another Atelier server (process ${first.child.pid}) is already using the data folder`,
			);
			const health = await fetch(`http://127.0.0.1:${PORT + 1}/api/health`);
			expect(health.status).toBe(200);
		} finally {
			killQuietly(first.child.pid);
		}
	}, 120_000);
});
