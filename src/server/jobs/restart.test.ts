import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Generation } from "../../shared/generations";
import { startFakeHttpImageService } from "../testing/fakes/http-image-service";

type Started = { process: ChildProcess; output: () => string };

const PORT = 4391;
const ORIGIN = `http://localhost:${PORT}`;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch((error: unknown) => {
			if (error instanceof Error && error.message.startsWith("exited:")) throw error;
			return undefined;
		});
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

describe("restart safety", () => {
	let workDir: string;
	let serverBundle: string;

	beforeAll(async () => {
		// Inside the project, so the bundle resolves its dependencies from node_modules.
		await mkdir(".tmp", { recursive: true });
		workDir = await mkdtemp(path.join(".tmp", "restart-"));
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

	it("finishes every running generation exactly once after a SIGKILL, without starting any again", async () => {
		const provider = await startFakeHttpImageService({ latencyMs: 5_000 });
		const dataDir = path.join(workDir, "data");
		const start = async (): Promise<Started> => {
			let output = "";
			const child = spawn(process.execPath, [serverBundle], {
				cwd: process.cwd(),
				env: {
					PATH: process.env.PATH ?? "",
					NODE_ENV: "development",
					PORT: String(PORT),
					HOST: "127.0.0.1",
					BASE_URL: ORIGIN,
					DATA_DIR: dataDir,
					IMAGE_PROVIDER: "http",
					IMAGE_API_URL: provider.url,
					AUTH_RATE_LIMIT_ENABLED: "false",
					LOG_LEVEL: "warn",
				},
				stdio: ["ignore", "pipe", "pipe"],
			});
			child.stdout?.on("data", (chunk) => {
				output += chunk;
			});
			child.stderr?.on("data", (chunk) => {
				output += chunk;
			});
			await waitFor("the server to start", async () => {
				if (child.exitCode !== null) throw new Error(`exited: ${output}`);
				const response = await fetch(`${ORIGIN}/api/health`);
				return response.ok ? true : undefined;
			});
			return { process: child, output: () => output };
		};

		let server = await start();
		try {
			const signUp = await fetch(`${ORIGIN}/api/auth/sign-up/email`, {
				method: "POST",
				headers: { "content-type": "application/json", origin: ORIGIN },
				body: JSON.stringify({
					email: "restart@example.com",
					password: "secret12",
					name: "restart",
				}),
			});
			expect(signUp.status).toBe(200);
			const cookie = signUp.headers
				.getSetCookie()
				.map((value) => value.split(";")[0])
				.join("; ");
			const headers = { cookie, origin: ORIGIN, "content-type": "application/json" };

			const ids: string[] = [];
			for (const aspectRatio of ["--ar 1:1", "--ar 16:9", "--ar 9:16"]) {
				const response = await fetch(`${ORIGIN}/api/generations`, {
					method: "POST",
					headers,
					body: JSON.stringify({ prompt: `restart ${aspectRatio}`, aspectRatio }),
				});
				expect(response.status).toBe(201);
				ids.push(((await response.json()) as { id: string }).id);
			}
			const read = async (id: string) =>
				(await (await fetch(`${ORIGIN}/api/generations/${id}`, { headers })).json()) as Generation;

			// Every generation has been started at the provider and is still running there.
			await waitFor("every generation to be started", async () => {
				const all = await Promise.all(ids.map(read));
				return all.every((item) => item.api_id && item.status === "running") ? true : undefined;
			});
			expect(provider.startCount()).toBe(3);

			server.process.kill("SIGKILL");
			await new Promise((resolve) => server.process.once("exit", resolve));

			server = await start();
			const finished = await waitFor("every generation to complete", async () => {
				const all = await Promise.all(ids.map(read));
				return all.every((item) => item.status === "completed") ? all : undefined;
			});

			expect(provider.startCount()).toBe(3);
			for (const item of finished) {
				expect(item.images).toHaveLength(4);
				const files = await readdir(path.join(dataDir, "images", "generations", item.id));
				expect(files.sort()).toEqual(
					["0", "1", "2", "3"].flatMap((index) => [`${index}-thumb.webp`, `${index}.png`]).sort(),
				);
			}
		} finally {
			server.process.kill("SIGKILL");
			await provider.stop();
		}
	}, 120_000);
});
