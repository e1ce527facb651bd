import { mkdtemp, rm } from "node:fs/promises";
import { Agent, get } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ServerProcess, startServer } from "../testing/server-process";
import { IDLE_CONNECTION_TIMEOUT_MS } from "./idle-connections";

// Longer than Node's own keep-alive (5 s, closed about a second later): a client coming back
// after this long met the server closing the connection as it sent, and read ECONNRESET.
const IDLE_MS = 7_000;

/** A GET through `agent`: its status, its Keep-Alive header and the socket it went on. */
function ask(url: string, agent: Agent) {
	return new Promise<{ status: number; keepAlive: string | string[] | undefined; socket: Socket }>(
		(resolve, reject) => {
			get(url, { agent }, (response) => {
				// Read now: the agent takes the socket back once the answer has ended.
				const { socket } = response;
				response.resume();
				response.on("end", () =>
					resolve({
						status: response.statusCode ?? 0,
						keepAlive: response.headers["keep-alive"],
						socket,
					}),
				);
			}).on("error", reject);
		},
	);
}

// A matter of the HTTP server alone, whichever database is behind it: one process, embedded.
describe("a kept-alive connection to a server process", () => {
	let workDir: string;
	let server: ServerProcess;

	beforeAll(async () => {
		workDir = await mkdtemp(path.join(".tmp", "idle-connections-"));
		server = await startServer(inject("serverEntry"), {
			DATA_DIR: path.join(workDir, "data"),
			LOG_LEVEL: "warn",
		});
	}, 120_000);
	afterAll(async () => {
		await server?.kill();
		await rm(workDir, { recursive: true, force: true });
	});

	it("stays open through an idle longer than Node's default, and serves the next request on it", async () => {
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const first = await ask(`${server.origin}/api/health`, agent);
			expect(first.status).toBe(200);
			expect(first.keepAlive).toBe(`timeout=${IDLE_CONNECTION_TIMEOUT_MS / 1000}`);

			await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
			expect(first.socket.destroyed).toBe(false);
			const second = await ask(`${server.origin}/api/health`, agent);
			expect(second.status).toBe(200);
			expect(second.socket).toBe(first.socket);
		} finally {
			agent.destroy();
		}
	}, 60_000);
});
