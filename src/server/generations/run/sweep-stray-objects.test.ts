import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage } from "../../storage/s3-storage";
import type { Storage } from "../../storage/storage";
import { seedGeneration } from "../../testing/history-kit";
import { type S3Server, startS3Server } from "../../testing/s3-server";
import { availableDatabaseKinds } from "../../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../../testing/test-server";
import { deleteGenerationRows } from "../generation-repository";
import { claimGeneration } from "./generation-lifecycle";
import { runFolder } from "./store-images";
import { sweepStrayObjects } from "./sweep-stray-objects";

async function listAllKeys(storage: Storage): Promise<string[]> {
	const keys: string[] = [];
	for await (const page of storage.listKeys("generations/")) keys.push(...page);
	return keys.sort();
}

function put(storage: Storage, key: string): Promise<void> {
	return storage.put(key, new Uint8Array([1, 2, 3]), "image/png");
}

describe.each(availableDatabaseKinds())("the stray-object sweep on %s", (kind) => {
	let server: TestServer;
	let s3: S3Server;
	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
		s3 = await startS3Server();
	});
	afterAll(async () => {
		await server?.close();
		await s3?.stop();
	});

	const storages: Array<[string, () => Storage]> = [
		["a local folder", () => server.storage],
		[
			"an S3-compatible bucket",
			() =>
				createS3Storage({
					bucket: s3.bucket,
					region: s3.region,
					endpoint: s3.endpoint,
					accessKeyId: s3.accessKeyId,
					secretAccessKey: s3.secretAccessKey,
					forcePathStyle: true,
					prefix: "",
				}),
		],
	];

	it.each(storages)(
		"in %s removes every object no generation names and keeps every one a generation names",
		async (_name, createStorage) => {
			const storage = createStorage();
			const store = { database: server.database, storage };
			const person = await createTestUser(server);
			const db = server.database.db;

			// A finished generation, and the images of an earlier run of it that died while storing.
			const finished = await seedGeneration(store, { userId: person.userId, prompt: "finished" });
			await put(storage, `${runFolder(finished.id, randomUUID())}0.png`);

			// A generation whose row was deleted by a process that died before removing its files.
			const deleted = await seedGeneration(store, { userId: person.userId, prompt: "deleted" });
			await deleteGenerationRows(db, { ids: [deleted.id], userId: undefined });

			// A generation a run is storing right now, beside what a run that lost it left.
			const running = await seedGeneration(store, {
				userId: person.userId,
				prompt: "running",
				status: "queued",
			});
			const token = randomUUID();
			// The only queued generation, so the next in the queue.
			expect((await claimGeneration(db, token, 60_000))?.id).toBe(running.id);
			const storing = `${runFolder(running.id, token)}0.png`;
			await put(storage, storing);
			await put(storage, `${runFolder(running.id, randomUUID())}0.png`);

			// A generation that failed after its run had stored part of its images.
			const failed = await seedGeneration(store, {
				userId: person.userId,
				prompt: "failed",
				status: "failed",
			});
			await put(storage, `${runFolder(failed.id, randomUUID())}0.png`);

			const named = finished.images.flatMap((image) => [image.key, image.thumbnailKey]);
			expect(await sweepStrayObjects({ db, storage })).toBe(4 * 2 + 3);
			expect(await listAllKeys(storage)).toEqual([...named, storing].sort());
			// A second sweep finds nothing more to remove.
			expect(await sweepStrayObjects({ db, storage })).toBe(0);
		},
	);
});
