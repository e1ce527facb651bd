import { mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GenerationSchema } from "../../shared/generations/generations";
import { startFakeHttpImageService } from "../testing/fakes/http-image-service";
import { type ServerProcess, signUpOn, startServer, waitFor } from "../testing/server-process";

describe("restart safety", () => {
	let workDir: string;

	beforeAll(async () => {
		workDir = await mkdtemp(path.join(".tmp", "restart-"));
	});
	afterAll(async () => {
		await rm(workDir, { recursive: true, force: true });
	});

	it("finishes every running generation exactly once after a SIGKILL, without starting any again", async () => {
		const provider = await startFakeHttpImageService({ latencyMs: 5_000 });
		const dataDir = path.join(workDir, "data");
		const start = (): Promise<ServerProcess> =>
			startServer(inject("serverEntry"), {
				DATA_DIR: dataDir,
				IMAGE_PROVIDER: "http",
				IMAGE_API_URL: provider.url,
				AUTH_RATE_LIMIT_ENABLED: "false",
				LOG_LEVEL: "warn",
			});

		let server = await start();
		try {
			const headers = await signUpOn(server.origin, "restart@example.com");
			const ids: string[] = [];
			for (const aspectRatio of ["--ar 1:1", "--ar 16:9", "--ar 9:16"]) {
				const response = await fetch(`${server.origin}/api/generations`, {
					method: "POST",
					headers,
					body: JSON.stringify({ prompt: `restart ${aspectRatio}`, aspectRatio }),
				});
				expect(response.status).toBe(201);
				ids.push(((await response.json()) as { id: string }).id);
			}
			const read = async (id: string) =>
				GenerationSchema.parse(
					await (await fetch(`${server.origin}/api/generations/${id}`, { headers })).json(),
				);

			// Every generation has been started at the provider and is still running there.
			await waitFor("every generation to be started", async () => {
				const all = await Promise.all(ids.map(read));
				return all.every((item) => item.api_id && item.status === "running") ? true : undefined;
			});
			expect(provider.startCount()).toBe(3);

			await server.kill("SIGKILL");

			server = await start();
			const finished = await waitFor("every generation to complete", async () => {
				const all = await Promise.all(ids.map(read));
				return all.every((item) => item.status === "completed") ? all : undefined;
			});

			expect(provider.startCount()).toBe(3);
			for (const item of finished) {
				expect(item.images).toHaveLength(4);
				// One run stored the images, in its own folder, and nothing else is left.
				const folder = path.join(dataDir, "images", "generations", item.id);
				const runs = await readdir(folder);
				expect(runs).toHaveLength(1);
				const files = await readdir(path.join(folder, runs[0] ?? ""));
				expect(files.sort()).toEqual(
					["0", "1", "2", "3"]
						.flatMap((index) => [`${index}-thumb.webp`, `${index}-display.webp`, `${index}.png`])
						.sort(),
				);
			}
		} finally {
			await server.kill("SIGKILL");
			await provider.stop();
		}
	}, 120_000);
});
