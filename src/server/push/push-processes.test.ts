// Two real server processes on one PostgreSQL: each generation that finishes, on whichever process,
// is pushed once to each of its owner's devices, whichever process takes each attempt.
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CreateGenerationResponseSchema } from "../../shared/generations/generations";
import { PushNotificationSchema } from "../../shared/notifications/push";
import { waitForPushesSettled } from "../testing/push-kit";
import { startPushService } from "../testing/push-service";
import { type ServerProcess, signUpOn, startServer, waitFor } from "../testing/server-process";
import { createEmptyPostgresDatabase } from "../testing/test-database";

const SECRET = "push-processes-secret-at-least-32-characters";

describe.skipIf(!inject("postgresUrl"))("Web Push across two processes on one PostgreSQL", () => {
	beforeAll(async () => {});
	afterAll(async () => {});

	it("pushes each finished generation once per device, whichever process finished it", async () => {
		const database = await createEmptyPostgresDatabase();
		const dataDir = await mkdtemp(path.join(".tmp", "push-replicas-"));
		// Each endpoint's first request is refused for now (503): its retry, 10 s later, may be taken
		// by either process.
		const service = await startPushService((n) => ({ status: n === 1 ? 503 : 201 }));
		let replicas: ServerProcess[] = [];
		try {
			const env = {
				DATABASE_URL: database.url,
				DATA_DIR: dataDir,
				BETTER_AUTH_SECRET: SECRET,
				WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
				AUTH_RATE_LIMIT_ENABLED: "false",
				LOCAL_ENGINE_DELAY_MS: "0",
			};
			const first = await startServer(inject("serverEntry"), env);
			replicas = [first, await startServer(inject("serverEntry"), env)];
			const headers = await signUpOn(first.origin, "push-replicas@example.com", first.origin);
			const devices = [service.subscribe(), service.subscribe()];
			for (const [index, device] of devices.entries()) {
				// Each device turns notifications on through a different process.
				const replica = replicas[index] as ServerProcess;
				const response = await fetch(`${replica.origin}/api/account/push/subscriptions`, {
					method: "POST",
					headers: { ...headers, origin: replica.origin },
					body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }),
				});
				expect(response.status).toBe(201);
			}

			const generationIds: string[] = [];
			for (let index = 0; index < 6; index++) {
				const replica = replicas[index % 2] as ServerProcess;
				const response = await fetch(`${replica.origin}/api/generations`, {
					method: "POST",
					headers: { ...headers, origin: replica.origin },
					body: JSON.stringify({ prompt: `replica push ${index}`, aspectRatio: "--ar 1:1" }),
				});
				expect(response.status).toBe(201);
				const created = CreateGenerationResponseSchema.parse(await response.json());
				if (!created.success) throw new Error(created.error.message);
				generationIds.push(created.id);
				// Never more than the three a person may have running.
				if (index % 3 === 2) {
					await waitFor("the generations to be pushed", async () =>
						service.received().length === generationIds.length * devices.length ? true : undefined,
					);
				}
			}
			await waitFor("every push", async () =>
				service.received().length === 12 ? true : undefined,
			);
			// Nothing is pushed twice: once no attempt is left, what arrived is all there is.
			const queue = new pg.Client({ connectionString: database.url });
			await queue.connect();
			try {
				await waitForPushesSettled(queue);
			} finally {
				await queue.end();
			}

			const received = service.received();
			expect(received).toHaveLength(12);
			expect(service.refused()).toEqual([]);
			for (const device of devices) {
				const tags = received
					.filter((push) => push.endpoint === device.endpoint)
					.map((push) => PushNotificationSchema.parse(push.message).tag)
					.sort();
				expect(tags).toEqual(generationIds.map((id) => `generation-${id}`).sort());
			}
			// Both processes sign with the one key derived from the shared secret.
			expect(new Set(received.map((push) => push.vapidKey)).size).toBe(1);
		} finally {
			await Promise.all(replicas.map((replica) => replica.kill()));
			await service.close();
			await database.drop();
			await rm(dataDir, { recursive: true, force: true });
		}
	}, 180_000);
});
