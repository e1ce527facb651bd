import sharp from "sharp";
import { expect } from "vitest";
import {
	CreateGenerationResponseSchema,
	type Generation,
} from "../../shared/generations/generations";
import { UploadResponseSchema } from "../../shared/image-input/image-input";
import type { ModelCatalogue } from "../models/model-catalogue";
import { readGeneration, waitForFinish } from "./generation-kit";
import type { DatabaseKind } from "./test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
	type TestServerOptions,
} from "./test-server";

// Images, masks and comparisons for the tests of Edit region and Expand.

/** The source the region tests edit, and the hole their mask opens in it. */
export const SOURCE_SIZE = { width: 240, height: 160 };
export const HOLE = { left: 60, top: 40, width: 80, height: 60 };

/** Whether a pixel of the source lies in the hole, what the edit may change. */
export function isInHole(x: number, y: number): boolean {
	return (
		x >= HOLE.left && x < HOLE.left + HOLE.width && y >= HOLE.top && y < HOLE.top + HOLE.height
	);
}

/** A picture with detail everywhere, so a kept pixel is told from a repainted one. */
export async function picture(width: number, height: number): Promise<Buffer> {
	const pixels = Buffer.alloc(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const offset = (y * width + x) * 3;
			pixels[offset] = (x * 7) % 256;
			pixels[offset + 1] = (y * 5) % 256;
			pixels[offset + 2] = ((x + y) * 3) % 256;
		}
	}
	return sharp(pixels, { raw: { width, height, channels: 3 } })
		.png()
		.toBuffer();
}

/** A mask: white over the rectangle (x, y, width, height), black elsewhere. */
export async function rectangleMask(
	size: { width: number; height: number },
	rectangle: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
	const white = await sharp({
		create: { width: rectangle.width, height: rectangle.height, channels: 3, background: "#fff" },
	})
		.png()
		.toBuffer();
	return sharp({ create: { ...size, channels: 3, background: "#000" } })
		.composite([{ input: white, left: rectangle.left, top: rectangle.top }])
		.png()
		.toBuffer();
}

export async function upload(
	client: TestClient,
	data: Buffer,
	type = "image/png",
): Promise<{ uploadId: string }> {
	const form = new FormData();
	form.set("image", new File([new Uint8Array(data)], `file.${type.slice(6)}`, { type }));
	const response = await client.request("/api/uploads", { method: "POST", body: form });
	expect(response.status).toBe(201);
	return { uploadId: UploadResponseSchema.parse(await response.json()).uploadId };
}

export async function post(client: TestClient, body: Record<string, unknown>): Promise<Response> {
	return client.request("/api/generations", { method: "POST", json: body });
}

export async function make(client: TestClient, body: Record<string, unknown>): Promise<Generation> {
	const response = await post(client, body);
	const created = CreateGenerationResponseSchema.parse(await response.json());
	if (!created.success) throw new Error(`creating failed: ${created.error.message}`);
	const poll = await waitForFinish(client, `/api/generations/${created.id}/status`);
	expect(poll.status).toBe("completed");
	return readGeneration(client, created.id);
}

export async function readBytes(client: TestClient, url: string): Promise<Buffer> {
	const response = await client.request(url);
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

export async function rgb(data: Uint8Array) {
	return sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/**
 * The largest difference of one channel between two images of the same size, over the pixels
 * `isCounted` picks (x, y), and the mean difference over the others.
 */
export async function compare(
	result: Uint8Array,
	source: Uint8Array,
	isKept: (x: number, y: number) => boolean,
): Promise<{ keptMax: number; changedMean: number }> {
	const [a, b] = await Promise.all([rgb(result), rgb(source)]);
	expect([a.info.width, a.info.height]).toEqual([b.info.width, b.info.height]);
	let keptMax = 0;
	let changedTotal = 0;
	let changedCount = 0;
	for (let y = 0; y < a.info.height; y++) {
		for (let x = 0; x < a.info.width; x++) {
			for (let channel = 0; channel < 3; channel++) {
				const offset = (y * a.info.width + x) * 3 + channel;
				const difference = Math.abs((a.data[offset] ?? 0) - (b.data[offset] ?? 0));
				if (isKept(x, y)) keptMax = Math.max(keptMax, difference);
				else {
					changedTotal += difference;
					changedCount++;
				}
			}
		}
	}
	return { keptMax, changedMean: changedCount ? changedTotal / changedCount : 0 };
}

/**
 * A server offering `models` to region edits: ten at once a person, no daily limit, and providers
 * asked every 20 ms, so a test's several edits run without waiting on the limits or the polls.
 */
export function createRegionEditServer(
	kind: DatabaseKind,
	models: ModelCatalogue,
	options: Omit<TestServerOptions, "models"> = {},
): Promise<TestServer> {
	return createTestServer(kind, {
		models,
		limits: { maxActivePerUser: 10, dailyLimitPerUser: 0 },
		run: { providerPollMs: 20 },
		...options,
	});
}

/** A new person's Edit region of a SOURCE_SIZE picture through the HOLE, on `model`, finished. */
export async function editRegionOn(server: TestServer, model: string) {
	const person = await createTestUser(server);
	const source = await picture(SOURCE_SIZE.width, SOURCE_SIZE.height);
	const edited = await make(person.client, {
		prompt: "a red door",
		action: "edit-region",
		reference: await upload(person.client, source),
		mask: await upload(person.client, await rectangleMask(SOURCE_SIZE, HOLE)),
		model,
		count: 1,
	});
	return { person, source, edited };
}
