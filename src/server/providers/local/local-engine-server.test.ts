import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateGenerationResponseSchema } from "../../../shared/generations/generations";
import { generationFolder } from "../../generations/run/store-images";
import { readGeneration, waitForFinish } from "../../testing/generation-kit";
import { availableDatabaseKinds } from "../../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../../testing/test-server";

const ORIGINAL_KEY = /\/(\d+)\.(jpg|jpeg|png|webp)$/;

describe.each(availableDatabaseKinds())("the offline engine's settings on %s", (kind) => {
	let server: TestServer;
	let client: TestClient;

	beforeAll(async () => {
		server = await createTestServer(kind);
		client = (await createTestUser(server)).client;
	});

	afterAll(async () => {
		await server?.close();
	});

	async function start(settings: Record<string, unknown>) {
		const response = await client.request("/api/generations", {
			method: "POST",
			json: { prompt: "a quiet forest lake at dawn", aspectRatio: "--ar 3:2", ...settings },
		});
		expect(response.status).toBe(201);
		const created = CreateGenerationResponseSchema.parse(await response.json());
		if (!created.success) throw new Error(created.error.message);
		return created;
	}

	/** The originals as stored, in image order: what the engine rendered, untouched. */
	async function readOriginals(id: string): Promise<Buffer[]> {
		const originals: { index: number; key: string }[] = [];
		for await (const keys of server.storage.listKeys(generationFolder(id))) {
			for (const key of keys) {
				const match = ORIGINAL_KEY.exec(key);
				if (match) originals.push({ index: Number(match[1]), key });
			}
		}
		originals.sort((a, b) => a.index - b.index);
		return Promise.all(
			originals.map(async ({ key }) => {
				const stored = await server.storage.get(key);
				if (!stored) throw new Error(`missing ${key}`);
				return Buffer.from(stored.data);
			}),
		);
	}

	async function generate(settings: Record<string, unknown>) {
		const created = await start(settings);
		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll.status).toBe("completed");
		return { created, poll, originals: await readOriginals(created.id) };
	}

	it("makes the same images for the same seed, and others for another seed", async () => {
		const settings = { seed: 987_654_321, negativePrompt: "birds, red", count: 2 };
		const first = await generate(settings);
		const again = await generate(settings);
		const other = await generate({ ...settings, seed: 987_654_322 });

		expect(first.originals).toHaveLength(2);
		expect(again.originals).toEqual(first.originals);
		expect(other.originals).toHaveLength(2);
		other.originals.forEach((image, index) => {
			expect(image.equals(first.originals[index] ?? Buffer.alloc(0))).toBe(false);
		});

		const expected = { count: 2, seed: 987_654_321, negativePrompt: "birds, red", quality: null };
		expect(first.created.settings).toEqual(expected);
		expect(first.poll.settings).toEqual(expected);
		expect((await readGeneration(client, first.created.id)).settings).toEqual(expected);
		expect(other.poll.settings.seed).toBe(987_654_322);
	});

	it("answers a random seed at once when none is sent, and makes its images with it", async () => {
		const created = await start({ count: 1 });
		const seed = created.settings?.seed;
		expect(seed).toEqual(expect.any(Number));
		const poll = await waitForFinish(client, created.pollingUrl);
		expect(poll.settings.seed).toBe(seed);
		const replay = await generate({ count: 1, seed });
		expect(replay.originals).toEqual(await readOriginals(created.id));
	});
});
