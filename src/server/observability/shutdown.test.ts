import { mkdtemp, rm } from "node:fs/promises";
import { Agent, get, request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readSample } from "../testing/metrics-text";
import { type ServerProcess, signUpOn, startServer, waitFor } from "../testing/server-process";
import { availableDatabaseKinds, createEmptyPostgresDatabase } from "../testing/test-database";
import { ReadinessSchema } from "./readiness";

const TOKEN = "a-scraper-token-of-32-characters";

/**
 * A request whose body arrives in two parts, the second when the test says: the server holds it
 * in flight for as long as the test wants, as a slow upload does.
 */
function startSlowRequest(url: string, headers: Record<string, string>, body: string) {
	const half = Math.floor(body.length / 2);
	let isSettled = false;
	const outgoing = request(url, {
		method: "POST",
		headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
	});
	const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
		outgoing.on("response", (response) => {
			let text = "";
			response.setEncoding("utf8");
			response.on("data", (chunk: string) => {
				text += chunk;
			});
			response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
			response.on("error", reject);
		});
		outgoing.on("error", reject);
	}).finally(() => {
		isSettled = true;
	});
	// Awaited by the test; a test that fails before then must not leave it unhandled.
	answered.catch(() => {});
	outgoing.write(body.slice(0, half));
	return {
		answered,
		isSettled: () => isSettled,
		finish: () => outgoing.end(body.slice(half)),
	};
}

/** The `connection` header of a GET that asks to keep its connection alive. */
function connectionHeaderOf(url: string): Promise<string | undefined> {
	const agent = new Agent({ keepAlive: true });
	return new Promise<string | undefined>((resolve, reject) => {
		get(url, { agent }, (response) => {
			response.resume();
			resolve(response.headers.connection);
		}).on("error", reject);
	}).finally(() => agent.destroy());
}

async function scrape(server: ServerProcess): Promise<string> {
	const response = await fetch(`${server.origin}/metrics`, {
		headers: { authorization: `Bearer ${TOKEN}` },
	});
	if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
	return response.text();
}

/** True once nothing listens on the server's port any more. */
async function isPortClosed(server: ServerProcess): Promise<true | undefined> {
	try {
		await fetch(`${server.origin}/api/health`);
		return undefined;
	} catch (error) {
		const code = (error as { cause?: { code?: unknown } }).cause?.code;
		return code === "ECONNREFUSED" ? true : undefined;
	}
}

describe.each(availableDatabaseKinds())("stopping a server process on %s", (kind) => {
	let workDir: string;

	beforeAll(async () => {
		workDir = await mkdtemp(path.join(".tmp", "shutdown-"));
	});
	afterAll(async () => {
		await rm(workDir, { recursive: true, force: true });
	});

	/** A server process of its own on `kind` (a new PostgreSQL database for it), scraped with TOKEN. */
	async function startOwnServer(folder: string, env: Record<string, string>) {
		const postgres = kind === "postgres" ? await createEmptyPostgresDatabase() : undefined;
		const server = await startServer(inject("serverEntry"), {
			DATA_DIR: path.join(workDir, folder),
			...(postgres
				? {
						DATABASE_URL: postgres.url,
						BETTER_AUTH_SECRET: "shutdown-test-secret-of-at-least-32-characters",
					}
				: {}),
			METRICS_TOKEN: TOKEN,
			AUTH_RATE_LIMIT_ENABLED: "false",
			LOG_LEVEL: "warn",
			...env,
		});
		return { server, postgres };
	}

	it("after SIGTERM answers 503 on /api/ready while the port still answers, finishes what is in flight, then closes", async () => {
		const { server, postgres } = await startOwnServer("data", {
			// Long enough for the test to see the drain on a busy machine; nothing waits it out but
			// the last step.
			READY_DRAIN_MS: "6000",
			// The test finishes the request in flight itself: the force-close timer (10 s by
			// default after the drain) is put out of its way, as the poll test below does.
			SHUTDOWN_TIMEOUT_MS: "120000",
			LOCAL_ENGINE_DELAY_MS: "0",
		});
		try {
			const ready = await fetch(`${server.origin}/api/ready`);
			expect(ready.status).toBe(200);
			expect(ReadinessSchema.parse(await ready.json())).toEqual({ ready: true, problems: [] });

			const headers = await signUpOn(server.origin, `shutdown-${kind}@example.com`);
			const slow = startSlowRequest(
				`${server.origin}/api/generations`,
				headers,
				JSON.stringify({ prompt: "uploaded slowly", aspectRatio: "--ar 1:1" }),
			);
			// In flight: the slow request and the scrape asking.
			await waitFor("the slow request to reach the server", async () => {
				const inFlight = readSample(await scrape(server), "atelier_http_requests_in_flight");
				return inFlight !== undefined && inFlight >= 2 ? true : undefined;
			});

			server.child.kill("SIGTERM");

			const draining = await waitFor("/api/ready to answer 503", async () => {
				const response = await fetch(`${server.origin}/api/ready`);
				return response.status === 503 ? response : undefined;
			});
			expect(ReadinessSchema.parse(await draining.json())).toEqual({
				ready: false,
				problems: ["shutting-down"],
			});
			// Every answer now ends its connection: a client keeping one connection busy would
			// otherwise be served on it after the port has closed, and hold the exit.
			expect(await connectionHeaderOf(`${server.origin}/api/health`)).toBe("close");
			// Liveness is another question: the process is well, only on its way out.
			expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);
			expect(slow.isSettled()).toBe(false);

			// Once the drain is over the port takes nobody new, and the request in flight goes on.
			await waitFor("the port to close", () => isPortClosed(server));
			expect(slow.isSettled()).toBe(false);
			expect(server.child.exitCode).toBeNull();
			slow.finish();
			const answer = await slow.answered;
			expect(answer.status).toBe(201);

			await server.exited();
			expect(server.child.exitCode).toBe(0);
			// Nothing in flight had to be cut off.
			expect(server.output()).not.toContain("in-flight requests did not finish in time");
		} finally {
			await server.kill();
			await postgres?.drop();
		}
	}, 120_000);

	it("answers its long polls at once after SIGTERM instead of holding the exit for their wait", async () => {
		const { server, postgres } = await startOwnServer("data-polls", {
			READY_DRAIN_MS: "0",
			// Far longer than the poll's wait: the port closes once the poll has answered, not by force.
			SHUTDOWN_TIMEOUT_MS: "120000",
		});
		try {
			const headers = await signUpOn(server.origin, `shutdown-polls-${kind}@example.com`);
			const first = await fetch(`${server.origin}/api/generations/active`, { headers });
			const { version } = (await first.json()) as { version: string };
			// Nothing changes for this person, so the server would hold this poll for all 25 s.
			const poll = fetch(
				`${server.origin}/api/generations/active?after=${encodeURIComponent(version)}&wait=25000`,
				{ headers },
			).then(async (response) => ({ status: response.status, body: await response.json() }));
			await waitFor("the poll to be waiting", async () => {
				const inFlight = readSample(await scrape(server), "atelier_http_requests_in_flight");
				return inFlight !== undefined && inFlight >= 2 ? true : undefined;
			});

			server.child.kill("SIGTERM");
			// Without ending the waits the poll answers only when its 25 s are up.
			const outcome = await Promise.race([
				poll,
				new Promise<"still waiting">((resolve) =>
					setTimeout(() => resolve("still waiting"), 15_000),
				),
			]);
			expect(outcome).toEqual({ status: 200, body: expect.objectContaining({ version }) });
			await server.exited();
			expect(server.child.exitCode).toBe(0);
			expect(server.output()).not.toContain("in-flight requests did not finish in time");
		} finally {
			await server.kill();
			await postgres?.drop();
		}
	}, 120_000);
});
