import { request as httpGet } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { GenerationRow, StoredImage } from "../../db/schema";
import type { Storage, StoredObject } from "../../storage/storage";
import { readZip } from "../../testing/read-zip";
import { createGenerationArchive } from "./generation-archive";

function createRow(id: string, imageCount: number): GenerationRow {
	const images: StoredImage[] = Array.from({ length: imageCount }, (_, index) => ({
		key: `generations/${id}/${index}.png`,
		contentType: "image/png",
		width: 64,
		height: 64,
		thumbnailKey: `generations/${id}/${index}-thumb.webp`,
		thumbnailWidth: 32,
		thumbnailHeight: 32,
	}));
	const now = new Date("2025-01-05T10:00:00Z");
	return {
		id,
		user_id: "user-1",
		prompt: `prompt of ${id}`,
		aspect_ratio: "--ar 1:1",
		status: "completed",
		provider: "local",
		model_id: "local",
		model_label: "Offline engine",
		image_count: 4,
		seed: "1234",
		negative_prompt: null,
		quality: null,
		price_per_image: null,
		stored_bytes: null,
		api_id: null,
		polling_url: null,
		images,
		error: null,
		status_message: null,
		progress_stage: null,
		progress_percent: null,
		progress_step: null,
		progress_steps: null,
		progress_position: null,
		preview_key: null,
		action: null,
		reference_strength: null,
		upscale_factor: null,
		style_id: null,
		style_name: null,
		styled_prompt: null,
		styled_negative_prompt: null,
		original_prompt: null,
		reference_image: null,
		parent_generation_id: null,
		parent_image_index: null,
		from_upload: false,
		region_mask: null,
		expand_frame: null,
		is_favorite: false,
		attempts: 1,
		lease_owner: null,
		lease_until: null,
		wait_began_at: null,
		deleted_at: null,
		deleted_by: null,
		created_at: now,
		started_at: now,
		completed_at: now,
		updated_at: now,
	};
}

/** A store of fake 256 kB images that counts reads and can fail after some. */
function createMemoryStorage(options: { failAfterReads?: number } = {}) {
	let reads = 0;
	let largestConcurrent = 0;
	let concurrent = 0;
	const storage: Storage = {
		kind: "memory",
		async put() {},
		async delete() {},
		async deletePrefix() {},
		async *listKeys() {},
		async get(key): Promise<StoredObject | undefined> {
			reads += 1;
			concurrent += 1;
			largestConcurrent = Math.max(largestConcurrent, concurrent);
			await new Promise((resolve) => setTimeout(resolve, 1));
			concurrent -= 1;
			if (options.failAfterReads !== undefined && reads > options.failAfterReads) {
				throw new Error("storage is unavailable");
			}
			const data = new Uint8Array(256 * 1024).fill(key.length % 251);
			return { data, contentType: "image/png" };
		},
	};
	return { storage, readCount: () => reads, largestConcurrent: () => largestConcurrent };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("createGenerationArchive", () => {
	it("writes each generation's metadata and images, and the listed extra files", async () => {
		const { storage } = createMemoryStorage();
		const rows = [createRow("b", 2), createRow("a", 1)];
		const files = await readZip(
			await readAll(
				createGenerationArchive({
					generations: rows,
					storage,
					files: [{ name: "account.json", content: '{"email":"jane@example.com"}' }],
				}),
			),
		);
		expect([...files.keys()].sort()).toEqual([
			"account.json",
			"generations.json",
			"generations/2025-01-05_a/image-1.png",
			"generations/2025-01-05_a/metadata.json",
			"generations/2025-01-05_b/image-1.png",
			"generations/2025-01-05_b/image-2.png",
			"generations/2025-01-05_b/metadata.json",
		]);
		const metadata = JSON.parse(
			files.get("generations/2025-01-05_b/metadata.json")?.toString() ?? "",
		);
		expect(metadata).toMatchObject({
			id: "b",
			prompt: "prompt of b",
			aspectRatio: "--ar 1:1",
			createdAt: "2025-01-05T10:00:00.000Z",
			images: [
				{ file: "image-1.png", width: 64, height: 64 },
				{ file: "image-2.png", width: 64, height: 64 },
			],
		});
		expect(files.get("generations/2025-01-05_b/image-2.png")?.length).toBe(256 * 1024);
	});

	it("reads images one at a time, only as fast as the reader takes the archive", async () => {
		const { storage, readCount, largestConcurrent } = createMemoryStorage();
		const stream = createGenerationArchive({
			generations: Array.from({ length: 10 }, (_, index) => createRow(`g${index}`, 4)),
			storage,
		});
		const reader = stream.getReader();
		// The index and the first metadata come first; read on until the first image was asked for.
		for (let chunk = 0; chunk < 20 && readCount() === 0; chunk++) await reader.read();
		await new Promise((resolve) => setTimeout(resolve, 100));
		// 40 images of 256 kB exist; an unread archive has asked for only the first few.
		expect(readCount()).toBeLessThan(5);
		await reader.cancel();
		expect(largestConcurrent()).toBe(1);
	});

	it("errors the stream, rather than ending it, when the first image is missing", async () => {
		const { storage } = createMemoryStorage();
		const missingFirst: Storage = {
			...storage,
			get: async (key) => (key.endsWith("/0.png") ? undefined : storage.get(key)),
		};
		const stream = createGenerationArchive({
			generations: [createRow("a", 2)],
			storage: missingFirst,
		});
		await expect(readAll(stream)).rejects.toThrow("The image generations/a/0.png is missing");
	});

	it("aborts the HTTP response when storage fails part-way, instead of ending a truncated file", async () => {
		const { storage } = createMemoryStorage({ failAfterReads: 3 });
		const app = new Hono();
		app.get("/export", (context) =>
			context.body(
				createGenerationArchive({
					generations: [createRow("a", 4), createRow("b", 4)],
					storage,
				}),
				200,
				{ "content-type": "application/zip" },
			),
		);
		const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
		await new Promise<void>((resolve) => server.once("listening", () => resolve()));
		const { port } = server.address() as AddressInfo;
		try {
			const outcome = await new Promise<{ status: number; bytes: number; ending: string }>(
				(resolve) => {
					const request = httpGet({ host: "127.0.0.1", port, path: "/export" }, (response) => {
						let bytes = 0;
						response.on("data", (chunk: Buffer) => {
							bytes += chunk.length;
						});
						response.on("end", () =>
							resolve({ status: response.statusCode ?? 0, bytes, ending: "complete" }),
						);
						response.on("error", () =>
							resolve({ status: response.statusCode ?? 0, bytes, ending: "aborted" }),
						);
						response.on("aborted", () =>
							resolve({ status: response.statusCode ?? 0, bytes, ending: "aborted" }),
						);
					});
					request.end();
				},
			);
			expect(outcome.status).toBe(200);
			expect(outcome.ending).toBe("aborted");
			expect(outcome.bytes).toBeGreaterThan(256 * 1024);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
