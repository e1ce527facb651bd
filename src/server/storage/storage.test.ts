import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3Server, startS3Server } from "../testing/s3-server";
import { createTestServer, createTestUser } from "../testing/test-server";
import { createLocalStorage } from "./local-storage";
import { createS3Storage } from "./s3-storage";
import { createSignedUrls, SIGNED_URL_SECONDS } from "./signed-urls";
import type { Storage } from "./storage";

let folder: string;
let s3: S3Server;

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "atelier-storage-"));
	s3 = await startS3Server({ bucket: "atelier-images" });
});
afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
	await s3?.stop();
});

/** The S3 driver on the s3rver started above, with every key under `prefix`. */
function createTestS3Storage(prefix: string): Storage {
	return createS3Storage({
		bucket: s3.bucket,
		region: s3.region,
		endpoint: s3.endpoint,
		accessKeyId: s3.accessKeyId,
		secretAccessKey: s3.secretAccessKey,
		forcePathStyle: true,
		prefix,
	});
}

const drivers: Array<[string, () => Storage]> = [
	["local folder", () => createLocalStorage(folder)],
	["S3-compatible bucket", () => createTestS3Storage("atelier/")],
];

describe.each(drivers)("storage in a %s", (_name, create) => {
	it("stores, reads back and deletes objects", async () => {
		const storage = create();
		const data = new Uint8Array([1, 2, 3, 4, 5]);
		await storage.put("generations/a1/0.png", data, "image/png");
		const object = await storage.get("generations/a1/0.png");
		expect(object && Buffer.from(object.data)).toEqual(Buffer.from(data));
		expect(object?.contentType).toBe("image/png");

		await storage.delete(["generations/a1/0.png", "generations/a1/missing.png"]);
		expect(await storage.get("generations/a1/0.png")).toBeUndefined();
	});

	it("deletes a whole folder, however many objects it holds, and nothing beside it", async () => {
		const storage = create();
		for (let index = 0; index < 5; index++) {
			await storage.put(`generations/b2/${index}.webp`, new Uint8Array([index]), "image/webp");
		}
		await storage.put("generations/b22/0.webp", new Uint8Array([9]), "image/webp");
		await storage.deletePrefix("generations/b2/");
		for (let index = 0; index < 5; index++) {
			expect(await storage.get(`generations/b2/${index}.webp`)).toBeUndefined();
		}
		expect(await storage.get("generations/b22/0.webp")).toBeDefined();
	});

	it("refuses keys that could leave its root", async () => {
		const storage = create();
		for (const key of ["../secret", "/etc/passwd", "generations/../../x", "a//b", ""]) {
			await expect(storage.put(key, new Uint8Array([1]), "image/png")).rejects.toThrow(
				/Invalid storage key/,
			);
		}
	});
});

describe("S3 storage", () => {
	it("holds a generation's images and thumbnails, serves them, and loses them with the generation", async () => {
		const storage = createTestS3Storage("server/");
		const server = await createTestServer("pglite", { storage });
		try {
			const { client } = await createTestUser(server);
			const created = (await (
				await client.request("/api/generations", {
					method: "POST",
					json: { prompt: "a harbour at night", aspectRatio: "--ar 3:2" },
				})
			).json()) as { id: string; pollingUrl: string };
			let status = "queued";
			for (let attempt = 0; attempt < 40 && status !== "completed"; attempt++) {
				status = ((await (await client.request(created.pollingUrl)).json()) as { status: string })
					.status;
			}
			expect(status).toBe("completed");
			const stored = await s3.listKeys(`server/generations/${created.id}/`);
			// Four originals, four display copies, four thumbnails.
			expect(stored).toHaveLength(12);
			const item = (await (await client.request(`/api/generations/${created.id}`)).json()) as {
				images: Array<{ thumbnailUrl: string; displayUrl?: string }>;
			};
			for (const url of [item.images[0]?.thumbnailUrl, item.images[0]?.displayUrl]) {
				const copy = await client.request(url ?? "");
				expect(copy.status).toBe(200);
				expect(copy.headers.get("content-type")).toBe("image/webp");
			}

			await client.request(`/api/generations/${created.id}?permanent=true`, { method: "DELETE" });
			expect((await s3.listKeys()).filter((key) => key.includes(created.id))).toEqual([]);
		} finally {
			await server.close();
		}
	});

	it("keeps every key under the configured prefix and signs with the configured key", async () => {
		const storage = createTestS3Storage("atelier/");
		await storage.put("generations/c3/0.png", new Uint8Array([7]), "image/png");
		expect(await s3.listKeys("atelier/generations/c3/")).toEqual(["atelier/generations/c3/0.png"]);

		const wrongKey = createS3Storage({
			bucket: s3.bucket,
			region: s3.region,
			endpoint: s3.endpoint,
			accessKeyId: "someone-else",
			secretAccessKey: "nope",
			forcePathStyle: true,
			prefix: "",
		});
		await expect(
			wrongKey.put("generations/c3/1.png", new Uint8Array([1]), "image/png"),
		).rejects.toThrow(/Access Key Id/);
		expect(await s3.listKeys("generations/")).toEqual([]);
	});

	it("deletes a folder that spans several list pages (s3rver answers 1000 keys a page)", async () => {
		const storage = createTestS3Storage("atelier/");
		const count = 1003;
		const keys = Array.from(
			{ length: count },
			(_, index) => `generations/d4/${String(index).padStart(4, "0")}.webp`,
		);
		// 50 at a time: the SDK's default number of sockets per host.
		for (let start = 0; start < count; start += 50) {
			await Promise.all(
				keys
					.slice(start, start + 50)
					.map((key) => storage.put(key, new Uint8Array([1]), "image/webp")),
			);
		}
		await storage.put("generations/d44/0.webp", new Uint8Array([9]), "image/webp");
		expect(await s3.listKeys("atelier/generations/d4/")).toHaveLength(count);

		await storage.deletePrefix("generations/d4/");
		expect(await s3.listKeys("atelier/generations/d4/")).toEqual([]);
		expect(await s3.listKeys("atelier/generations/d44/")).toEqual([
			"atelier/generations/d44/0.webp",
		]);
	}, 120_000);
});

describe("signed URLs on an S3-compatible bucket", () => {
	it("are the bucket's own presigned GET of that one object, under the bucket's prefix, lasting 15 minutes", async () => {
		const storage = createTestS3Storage("atelier/");
		const data = new Uint8Array([7, 8, 9]);
		await storage.put("generations/e5/run/input-mask.png", data, "image/png");
		const signedUrls = createSignedUrls({
			storage,
			baseUrl: "https://atelier.example",
			secret: "test-secret-that-is-at-least-32-characters-long",
		});
		const url = new URL(await signedUrls.urlFor("generations/e5/run/input-mask.png"));
		// Not our route: the bucket serves it, whether or not Atelier can be reached.
		expect(url.origin).toBe(new URL(s3.endpoint).origin);
		expect(url.pathname).toBe(`/${s3.bucket}/atelier/generations/e5/run/input-mask.png`);
		expect(url.searchParams.get("X-Amz-Expires")).toBe(String(SIGNED_URL_SECONDS));
		expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
		expect(url.searchParams.get("x-id")).toBe("GetObject");
		const answer = await fetch(url);
		expect(answer.status).toBe(200);
		expect(Buffer.from(await answer.arrayBuffer())).toEqual(Buffer.from(data));
	});

	it("end when asked: an expired presigned GET is refused by the bucket", async () => {
		const storage = createTestS3Storage("atelier/");
		await storage.put("generations/e6/run/input-image.png", new Uint8Array([1]), "image/png");
		const url = new URL(
			(await storage.presignGet?.("generations/e6/run/input-image.png", 1)) ?? "",
		);
		// Its second runs from its own signing time (X-Amz-Date, whole seconds): waited out, no more.
		const signedAt = (url.searchParams.get("X-Amz-Date") ?? "").replace(
			/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
			"$1-$2-$3T$4:$5:$6Z",
		);
		const endsAt = Date.parse(signedAt) + Number(url.searchParams.get("X-Amz-Expires")) * 1000;
		expect(endsAt).toBeGreaterThan(Date.now() - 2_000);
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now()) + 50));
		expect((await fetch(url)).status).toBe(403);
	});
});

describe("signed URLs of our own route", () => {
	it("hold for their one token text only: every other last character is refused, padding bits too", async () => {
		const signedUrls = createSignedUrls({
			storage: createLocalStorage(folder),
			baseUrl: "https://atelier.example",
			secret: "test-secret-that-is-at-least-32-characters-long",
		});
		const url = await signedUrls.urlFor("generations/e7/run/input-mask.png");
		const token = url.slice(url.lastIndexOf("/") + 1);
		expect(signedUrls.readToken(token)).toBe("generations/e7/run/input-mask.png");
		// The last of 43 base64url characters carries two padding bits: four texts decode alike.
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		const accepted = [...alphabet].filter((last) =>
			signedUrls.readToken(`${token.slice(0, -1)}${last}`),
		);
		expect(accepted).toEqual([token.at(-1)]);
	});
});
