import { existsSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type Generation, GenerationSchema } from "../../../shared/generations/generations";
import { createSilentLogger } from "../../logging/logger";
import { catalogueOfOne } from "../../models/model-catalogue";
import type { GenerationInput, ImageProvider, ProviderJobState } from "../../providers/types";
import { PLAIN_CAPABILITIES } from "../../providers/types";
import { DEFAULT_RUN_SETTINGS } from "../../server";
import { availableDatabaseKinds } from "../../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../../testing/test-server";
import { type GenerationRunDeps, runNextGeneration } from "./run-generation";
import { generationFolder } from "./store-images";

/**
 * An image service whose answers the test releases: it counts starts and cancels, and a check can
 * be held until the test lets it answer.
 */
function createHeldProvider() {
	let starts = 0;
	let cancels = 0;
	// What each check was asked about: the input a run started or resumed the job with.
	const checkedInputs: GenerationInput[] = [];
	const heldChecks: Array<() => void> = [];
	let isHoldingChecks = false;
	const png = sharp({
		create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 80, b: 40 } },
	})
		.png()
		.toBuffer();
	const provider: ImageProvider = {
		name: "held",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			starts += 1;
			return { jobId: `job-${starts}` };
		},
		async check(job): Promise<ProviderJobState> {
			checkedInputs.push(job.input);
			if (isHoldingChecks) await new Promise<void>((release) => heldChecks.push(release));
			const data = new Uint8Array(await png);
			return {
				status: "completed",
				images: [0, 1, 2, 3].map(() => ({ kind: "bytes", data, contentType: "image/png" })),
			};
		},
		async cancel() {
			cancels += 1;
		},
	};
	return {
		provider,
		starts: () => starts,
		cancels: () => cancels,
		checkedInputs: () => checkedInputs,
		heldCheckCount: () => heldChecks.length,
		holdChecks(isHolding: boolean) {
			isHoldingChecks = isHolding;
		},
		releaseHeldChecks() {
			for (const release of heldChecks.splice(0)) release();
		},
	};
}

async function startQueuedGeneration(server: TestServer) {
	const { client } = await createTestUser(server);
	const response = await client.request("/api/generations", {
		method: "POST",
		json: { prompt: "a lighthouse at dusk", aspectRatio: "--ar 1:1" },
	});
	const { id } = (await response.json()) as { id: string };
	return { client, id };
}

/** The generation as its owner reads it: completed, with four images and thumbnails that load. */
async function expectCompletedAndReadable(client: TestClient, id: string): Promise<Generation> {
	const generation = GenerationSchema.parse(
		await (await client.request(`/api/generations/${id}`)).json(),
	);
	expect(generation.status).toBe("completed");
	expect(generation.images).toHaveLength(4);
	for (const image of generation.images) {
		expect((await client.request(image.url)).status).toBe(200);
		expect((await client.request(image.thumbnailUrl)).status).toBe(200);
	}
	return generation;
}

function runDeps(server: TestServer, provider: ImageProvider): GenerationRunDeps {
	return {
		db: server.database.db,
		// The test server makes generations with the offline engine's model; here this provider serves it.
		models: catalogueOfOne(provider, { id: "local" }),
		storage: server.storage,
		downloadImage: () => Promise.reject(new Error("every image comes as bytes")),
		logger: createSilentLogger(),
		// Long leases: nothing renews or expires by itself while the test runs.
		settings: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 10, leaseMs: 60_000 },
	};
}

async function waitUntil(check: () => Promise<boolean> | boolean) {
	const deadline = Date.now() + 10_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error("timed out");
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

describe.each(availableDatabaseKinds())("two runs of one generation (%s)", (kind) => {
	it("racing in one process: one runs it, the other changes nothing", async () => {
		// No workers: the test runs the generation itself, twice at once.
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const held = createHeldProvider();
			const { client, id } = await startQueuedGeneration(server);
			const deps = runDeps(server, held.provider);

			const outcomes = await Promise.all([runNextGeneration(deps), runNextGeneration(deps)]);

			expect(outcomes.sort()).toEqual(["completed", "skipped"]);
			expect(held.starts()).toBe(1);
			await expectCompletedAndReadable(client, id);
		} finally {
			await server.close();
		}
	});

	it("a run whose lease ran out and was taken over stops without touching the winner's images", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const held = createHeldProvider();
			const { client, id } = await startQueuedGeneration(server);
			const deps = runDeps(server, held.provider);

			// The first run starts the provider's job, then stalls while it waits for the answer.
			held.holdChecks(true);
			const stalled = runNextGeneration(deps);
			await waitUntil(() => held.heldCheckCount() === 1);
			// Its lease runs out (as when its process stalls or dies) and a second run takes over.
			await sql`update generations set lease_until = now() - interval '1 second' where id = ${id}`.execute(
				server.database.db,
			);
			held.holdChecks(false);
			expect(await runNextGeneration(deps)).toBe("completed");

			// The stalled run wakes up with its images, finds it no longer holds the generation, stops.
			held.releaseHeldChecks();
			expect(await stalled).toBe("skipped");

			expect(held.starts()).toBe(1);
			expect(held.cancels()).toBe(0);
			expect((await expectCompletedAndReadable(client, id)).api_id).toBe("job-1");
			// Only the winner's images are stored: the stalled run removed what it wrote itself.
			const row = await server.database.db
				.selectFrom("generations")
				.select(["images", "attempts"])
				.where("id", "=", id)
				.executeTakeFirstOrThrow();
			expect(row.attempts).toBe(2);
			const stored = await Promise.all(
				row.images
					.flatMap((image) => [image.key, image.thumbnailKey, image.displayKey ?? ""])
					.map(async (key) => {
						expect(key.startsWith(generationFolder(id))).toBe(true);
						return server.storage.get(key);
					}),
			);
			expect(stored.every((object) => object !== undefined)).toBe(true);
		} finally {
			await server.close();
		}
	});

	it("a run that takes over a generation made from an image keeps its copy and gives the provider the image again", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const held = createHeldProvider();
			const { client, id: parentId } = await startQueuedGeneration(server);
			const deps = runDeps(server, held.provider);
			expect(await runNextGeneration(deps)).toBe("completed");
			const created = await client.request("/api/generations", {
				method: "POST",
				json: { reference: { generationId: parentId, imageIndex: 0 }, action: "vary-subtle" },
			});
			const { id } = (await created.json()) as { id: string };
			const reference = `${generationFolder(id)}reference.png`;

			held.holdChecks(true);
			const stalled = runNextGeneration(deps);
			await waitUntil(() => held.heldCheckCount() === 1);
			await sql`update generations set lease_until = now() - interval '1 second' where id = ${id}`.execute(
				server.database.db,
			);
			held.holdChecks(false);
			// The run that takes over clears what earlier runs stored, but not the copy, which it reads.
			expect(await runNextGeneration(deps)).toBe("completed");
			held.releaseHeldChecks();
			expect(await stalled).toBe("skipped");

			const parent = await expectCompletedAndReadable(client, parentId);
			const original = await client.request(parent.images[0]?.url ?? "");
			const originalBytes = Buffer.from(await original.arrayBuffer());
			const resumed = held.checkedInputs().at(-1);
			expect(resumed?.image).toMatchObject({ kind: "reference", strength: 0.35 });
			expect(Buffer.from(resumed?.image?.image.data ?? []).equals(originalBytes)).toBe(true);
			expect(await server.storage.get(reference)).toBeDefined();
		} finally {
			await server.close();
		}
	});

	it("a run whose generation was deleted meanwhile cancels the provider's job and leaves nothing", async () => {
		const server = await createTestServer(kind, { isWorkerEnabled: false });
		try {
			const held = createHeldProvider();
			const { client, id } = await startQueuedGeneration(server);
			const deps = runDeps(server, held.provider);

			held.holdChecks(true);
			const running = runNextGeneration(deps);
			await waitUntil(() => held.heldCheckCount() === 1);
			expect(
				(await client.request(`/api/generations/${id}?permanent=true`, { method: "DELETE" }))
					.status,
			).toBe(200);
			held.releaseHeldChecks();
			expect(await running).toBe("skipped");

			expect(held.cancels()).toBeGreaterThanOrEqual(1);
			expect((await client.request(`/api/generations/${id}`)).status).toBe(404);
			expect(existsSync(path.join(server.storageDir, generationFolder(id)))).toBe(false);
		} finally {
			await server.close();
		}
	});
});
