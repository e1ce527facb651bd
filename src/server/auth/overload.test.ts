import { describe, expect, inject, it } from "vitest";
import { ERRORS } from "../../shared/core/errors";
import { openPostgresDatabase } from "../db/database";
import { createSilentLogger } from "../logging/logger";
import { createLocalProvider } from "../providers/local/local-provider";
import { assembleServer } from "../server";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	TestClient,
	type TestServer,
} from "../testing/test-server";
import { createTestSettings } from "../testing/test-settings";

/** The real server on its own small pool of connections to a fresh, migrated PostgreSQL database. */
async function createServerOnSmallPool(pool: { max: number; connectionTimeoutMs: number }) {
	const base = await createTestServer("postgres", { isWorkerEnabled: false });
	const database = openPostgresDatabase(
		base.database.connectionString ?? "",
		createSilentLogger(),
		pool,
	);
	const server = await assembleServer({
		database,
		logger: createSilentLogger(),
		settings: createTestSettings(),
		storage: base.storage,
		models: createLocalProvider({ delayMs: 0 }),
		isWorkerEnabled: false,
	});
	return {
		...server,
		database,
		async close() {
			await server.stop();
			await database.close();
			await base.close();
		},
	};
}

describe.skipIf(!inject("postgresUrl"))("a server whose database connections are all busy", () => {
	it("answers 503 with the catalogue's message on auth and API routes, never an empty 500", async () => {
		const server = await createServerOnSmallPool({ max: 2, connectionTimeoutMs: 300 });
		try {
			const { client, email, password } = await createTestUser(server);
			const held = await Promise.all([
				server.database.pool.connect(),
				server.database.pool.connect(),
			]);
			try {
				const stranger = new TestClient(server, "203.0.113.77");
				const answers = [
					await stranger.request("/api/auth/sign-up/email", {
						method: "POST",
						json: { email: `crowd-${Date.now()}@example.com`, password, name: "crowd" },
					}),
					await stranger.request("/api/auth/sign-in/email", {
						method: "POST",
						json: { email, password },
					}),
					await client.request("/api/auth/get-session"),
					await client.request("/api/generations"),
					await client.request("/api/generations", {
						method: "POST",
						json: { prompt: "a crowd", aspectRatio: "--ar 1:1" },
					}),
				];
				for (const response of answers) {
					expect(response.status).toBe(503);
					expect(response.headers.get("content-type")).toMatch(/application\/json/);
					expect(await response.json()).toEqual({
						success: false,
						error: { code: "SERVICE_UNAVAILABLE", message: ERRORS.SERVICE_UNAVAILABLE.message },
					});
				}
			} finally {
				for (const connection of held) connection.release();
			}
			// Once connections are free again, the same person carries on.
			expect((await client.request("/api/generations")).status).toBe(200);
		} finally {
			await server.close();
		}
	});

	it("signs up without holding a connection while the password is hashed", async () => {
		const server = await createServerOnSmallPool({ max: 4, connectionTimeoutMs: 5_000 });
		try {
			// How long each connection stays checked out, while sign-ups run one at a time.
			const checkedOutAt = new Map<object, number>();
			let heldMs = 0;
			server.database.pool.on("acquire", (connection) => {
				checkedOutAt.set(connection, performance.now());
			});
			server.database.pool.on("release", (_error, connection) => {
				const since = checkedOutAt.get(connection);
				if (since !== undefined) heldMs = Math.max(heldMs, performance.now() - since);
				checkedOutAt.delete(connection);
			});
			const shares: number[] = [];
			for (let index = 0; index < 5; index++) {
				heldMs = 0;
				const started = performance.now();
				await createTestUser(server);
				shares.push(heldMs / (performance.now() - started));
			}
			shares.sort((a, b) => a - b);
			// Hashing (scrypt) is most of a sign-up; inside the transaction a connection would be held
			// for nearly all of it. Outside, the longest hold is the few statements of the transaction.
			expect(shares[2]).toBeLessThan(0.5);
		} finally {
			await server.close();
		}
	});
});

describe.each(availableDatabaseKinds())("a crowd signing up on %s", (kind) => {
	async function signUpCrowd(server: TestServer, size: number) {
		const stamp = Date.now();
		return Promise.all(
			Array.from({ length: size }, (_, index) =>
				new TestClient(server, `198.51.100.${index + 1}`).request("/api/auth/sign-up/email", {
					method: "POST",
					json: {
						email: `crowd-${stamp}-${index}@example.com`,
						password: "correct horse battery",
						name: "crowd",
					},
				}),
			),
		);
	}

	it("signs everyone up when hashing can serve them in reasonable time", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const answers = await signUpCrowd(server, 20);
			expect(answers.map((response) => response.status)).toEqual(answers.map(() => 200));
		} finally {
			await server.close();
		}
	});

	it("answers those hashing cannot serve in time at once with 503 and Retry-After, and serves the others", async () => {
		// One hash at a time, and no wait longer than about three hashes admitted.
		const server = await createTestServer(kind, {
			isWorkerEnabled: false,
			passwordHashing: { concurrency: 1, maxWaitMs: 300 },
		});
		try {
			const answers = await signUpCrowd(server, 12);
			const refused = answers.filter((response) => response.status === 503);
			expect(answers.filter((response) => response.status === 200).length).toBeGreaterThan(0);
			expect(refused.length).toBeGreaterThan(0);
			expect(refused.length + answers.filter((r) => r.status === 200).length).toBe(12);
			for (const response of refused) {
				expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
				expect(await response.json()).toEqual({
					success: false,
					error: { code: "SERVICE_UNAVAILABLE", message: ERRORS.SERVICE_UNAVAILABLE.message },
				});
			}
		} finally {
			await server.close();
		}
	});
});
