import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CreatedApiTokenSchema } from "../../shared/account/api-tokens";
import {
	ActiveGenerationsSchema,
	CreateGenerationResponseSchema,
	GenerationPageSchema,
} from "../../shared/generations/generations";
import { findFreePort } from "../testing/postgres-cluster";
import {
	readLoggedResetToken,
	type ServerProcess,
	signUpOn,
	spawnServer,
	waitUntilHealthy,
} from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

const SECRET = "api-token-processes-secret-at-least-32-characters";
const RATE_LIMIT = 6;

/** Two server processes on one database, as two replicas behind a load balancer. */
async function startTwoReplicas(entry: string, env: Record<string, string>) {
	const ports = [await findFreePort(), await findFreePort()];
	const baseUrl = `http://127.0.0.1:${ports[0]}`;
	const replicas = ports.map((port) =>
		spawnServer(entry, {
			PORT: String(port),
			BASE_URL: baseUrl,
			BETTER_AUTH_SECRET: SECRET,
			AUTH_RATE_LIMIT_ENABLED: "false",
			API_TOKEN_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
			...env,
		}),
	);
	await Promise.all(replicas.map((replica) => waitUntilHealthy(replica)));
	return { replicas, baseUrl };
}

describe.skipIf(!inject("postgresUrl"))("API tokens across two server processes", () => {
	let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
	let dataDir: string;
	let replicas: ServerProcess[] = [];
	let baseUrl: string;
	let session: Awaited<ReturnType<typeof signUpOn>>;

	beforeAll(async () => {
		database = await createEmptyPostgresDatabase();
		dataDir = await mkdtemp(path.join(".tmp", "token-replicas-"));
		({ replicas, baseUrl } = await startTwoReplicas(inject("serverEntry"), {
			DATABASE_URL: database.url,
			DATA_DIR: dataDir,
		}));
		session = await signUpOn(replicas[0]?.origin ?? "", "script@example.com", baseUrl);
	}, 120_000);
	afterAll(async () => {
		await Promise.all(replicas.map((replica) => replica.kill()));
		await database?.drop();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	function origin(index: number): string {
		return replicas[index % replicas.length]?.origin ?? "";
	}

	async function createToken(scopes: string[], headers = session): Promise<string> {
		const response = await fetch(`${origin(0)}/api/account/tokens`, {
			method: "POST",
			headers,
			body: JSON.stringify({ name: "replicas", scopes, expiresInDays: 30 }),
		});
		expect(response.status).toBe(201);
		return CreatedApiTokenSchema.parse(await response.json()).token;
	}

	it("holds a token to one limit whichever process answers", async () => {
		const token = await createToken(["read"]);
		const statuses: number[] = [];
		for (let index = 0; index < RATE_LIMIT + 2; index++) {
			const response = await fetch(`${origin(index)}/api/generations?limit=1`, {
				headers: { authorization: `Bearer ${token}` },
			});
			statuses.push(response.status);
			if (response.status === 429)
				expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
		}
		expect(statuses).toEqual([...Array(RATE_LIMIT).fill(200), 429, 429]);
	}, 60_000);

	it("ends, with a password reset on one process, a token made before it, on every process", async () => {
		const email = "squatter@example.com";
		const squatter = await signUpOn(origin(0), email, baseUrl);
		const made = await fetch(`${origin(0)}/api/account/tokens`, {
			method: "POST",
			headers: squatter,
			body: JSON.stringify({ name: "forever", scopes: ["read"], expiresInDays: null }),
		});
		const token = CreatedApiTokenSchema.parse(await made.json()).token;
		const tokenStatus = async (index: number) =>
			(
				await fetch(`${origin(index)}/api/generations?limit=1`, {
					headers: { authorization: `Bearer ${token}` },
				})
			).status;
		expect(await tokenStatus(1)).toBe(200);

		const headers = { "content-type": "application/json", origin: baseUrl };
		const asked = await fetch(`${origin(0)}/api/auth/request-password-reset`, {
			method: "POST",
			headers,
			body: JSON.stringify({ email }),
		});
		expect(asked.status).toBe(200);
		const resetToken = await readLoggedResetToken(replicas[0] as ServerProcess, email, baseUrl);
		const reset = await fetch(`${origin(1)}/api/auth/reset-password`, {
			method: "POST",
			headers,
			body: JSON.stringify({ token: resetToken, newPassword: "the owner's password" }),
		});
		expect(reset.status).toBe(200);

		expect(await tokenStatus(0)).toBe(401);
		expect(await tokenStatus(1)).toBe(401);
	}, 60_000);

	it("makes one generation for one Idempotency-Key sent to both processes at once", async () => {
		const token = await createToken(["generate", "read"]);
		const send = (index: number) =>
			fetch(`${origin(index)}/api/generations`, {
				method: "POST",
				headers: {
					authorization: `Bearer ${token}`,
					"content-type": "application/json",
					"idempotency-key": "replicas-key",
				},
				body: JSON.stringify({ prompt: "Two doors, one room", aspectRatio: "--ar 1:1" }),
			});
		const answers = await Promise.all([send(0), send(1)]);
		const ids = await Promise.all(
			answers.map(async (answer) => {
				expect(answer.status).toBe(201);
				const created = CreateGenerationResponseSchema.parse(await answer.json());
				return created.success ? created.id : created.error.message;
			}),
		);
		expect(ids[0]).toBe(ids[1]);
		const page = GenerationPageSchema.parse(
			await (
				await fetch(`${origin(1)}/api/generations`, {
					headers: { authorization: `Bearer ${token}` },
				})
			).json(),
		);
		expect(page.items.map((item) => item.id)).toEqual([ids[0]]);
	}, 60_000);

	it("ends a browser's wait for its active generations on one process at once when a token starts one on the other", async () => {
		const browser = await signUpOn(origin(0), "browser@example.com", baseUrl);
		const token = await createToken(["generate"], browser);
		const readActive = async (query = "") => {
			const response = await fetch(`${origin(0)}/api/generations/active${query}`, {
				headers: browser,
			});
			return ActiveGenerationsSchema.parse(await response.json());
		};
		const now = await readActive();
		expect(now.count).toBe(0);
		const waiting = readActive(`?after=${now.version}&wait=25000`);
		// The wait is under way on the first process before the second creates the generation.
		await new Promise((resolve) => setTimeout(resolve, 300));
		const startedAt = performance.now();
		const started = await fetch(`${origin(1)}/api/generations`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ prompt: "A kite seen from the other door", aspectRatio: "--ar 1:1" }),
		});
		expect(started.status).toBe(201);
		const woken = await waiting;
		expect(woken.count).toBe(1);
		expect(performance.now() - startedAt).toBeLessThan(1_000);
	}, 60_000);
});
