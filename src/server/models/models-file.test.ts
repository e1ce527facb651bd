import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MODEL_NO_LONGER_OFFERED } from "../../shared/generations/generation-settings";
import { GenerationSchema } from "../../shared/generations/generations";
import { ModelsResponseSchema } from "../../shared/generations/models";
import { findFreePort } from "../testing/postgres-cluster";
import {
	type ServerProcess,
	signUpOn,
	spawnServer,
	startServer,
	waitFor,
} from "../testing/server-process";

// The real server process reading MODELS_FILE: refusing to start on a bad one, and what happens to
// generations when the operator takes a model out of the file and restarts.
describe("MODELS_FILE in a running server", () => {
	let workDir: string;

	beforeAll(async () => {
		workDir = await mkdtemp(path.join(".tmp", "models-"));
	});
	afterAll(async () => {
		await rm(workDir, { recursive: true, force: true });
	});

	async function writeModels(name: string, entries: unknown[]): Promise<string> {
		const file = path.join(workDir, name);
		await writeFile(file, JSON.stringify(entries));
		return file;
	}

	it("refuses to start, naming the entry and field of every problem", async () => {
		const file = await writeModels("bad.json", [
			{ id: "sketch", label: "Sketch", provider: "local" },
			{ id: "sketch", label: "Again", provider: "local" },
			{ id: "flux", label: "Flux", provider: "fal" },
		]);
		const port = String(await findFreePort());
		const server = spawnServer(inject("serverEntry"), {
			PORT: port,
			DATA_DIR: path.join(workDir, "refused"),
			MODELS_FILE: file,
		});
		await server.exited();
		expect(server.child.exitCode).toBe(1);
		expect(server.output()).toContain("Atelier cannot start. Fix the models:");
		expect(server.output()).toContain('entry 2 (sketch): id: "sketch" is used by an earlier entry');
		expect(server.output()).toContain("entry 3 (flux): provider: needs FAL_KEY in the environment");
	});

	it("fails a waiting generation whose model was taken out, and keeps the label of finished ones", async () => {
		const dataDir = path.join(workDir, "data");
		const both = await writeModels("both.json", [
			{ id: "quick", label: "Quick", provider: "local", delayMs: 0, default: true },
			{ id: "slow", label: "Slow and steady", provider: "local", delayMs: 60_000 },
		]);
		const start = (modelsFile: string): Promise<ServerProcess> =>
			startServer(inject("serverEntry"), {
				DATA_DIR: dataDir,
				MODELS_FILE: modelsFile,
				AUTH_RATE_LIMIT_ENABLED: "false",
				LOG_LEVEL: "warn",
			});

		let server = await start(both);
		try {
			const models = ModelsResponseSchema.parse(
				await (await fetch(`${server.origin}/api/models`)).json(),
			);
			expect(models.models.map((model) => model.id)).toEqual(["quick", "slow"]);
			const headers = await signUpOn(server.origin, "models@example.com");
			const create = async (model: string) => {
				const response = await fetch(`${server.origin}/api/generations`, {
					method: "POST",
					headers,
					body: JSON.stringify({ prompt: `made by ${model}`, aspectRatio: "--ar 1:1", model }),
				});
				expect(response.status).toBe(201);
				return ((await response.json()) as { id: string }).id;
			};
			const read = async (id: string) =>
				GenerationSchema.parse(
					await (await fetch(`${server.origin}/api/generations/${id}`, { headers })).json(),
				);
			const finished = await create("quick");
			await waitFor("the quick one to finish", async () =>
				(await read(finished)).status === "completed" ? true : undefined,
			);
			const waiting = await create("slow");
			await waitFor("the slow one to start", async () =>
				(await read(waiting)).api_id ? true : undefined,
			);
			await server.kill("SIGKILL");

			// The operator takes "slow" out of the file and starts the server again.
			server = await start(
				await writeModels("quick-only.json", [
					{ id: "quick", label: "Quick v2", provider: "local", delayMs: 0 },
				]),
			);
			const failed = await waitFor("the orphaned generation to fail", async () => {
				const item = await read(waiting);
				return item.status === "failed" ? item : undefined;
			});
			expect(failed.error).toBe(MODEL_NO_LONGER_OFFERED);
			expect(failed.model).toEqual({ id: "slow", label: "Slow and steady" });
			// A finished generation keeps the label its model had when it was made.
			expect((await read(finished)).model).toEqual({ id: "quick", label: "Quick" });
		} finally {
			await server.kill("SIGTERM");
		}
	});
});
