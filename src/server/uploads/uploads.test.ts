import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CreatedApiTokenSchema } from "../../shared/account/api-tokens";
import { MAX_UPLOAD_BYTES, UploadResponseSchema } from "../../shared/image-input/image-input";
import { MAX_UNUSED_UPLOADS, UPLOAD_MESSAGES } from "../../shared/image-input/upload-rules";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import {
	createTestServer,
	createTestUser,
	type TestClient,
	type TestServer,
} from "../testing/test-server";
import { removeUnusedUploads } from "./remove-uploads";
import { findOwnUpload, insertUpload, markUploadUsed } from "./upload-repository";
import { newUploadId, readUploadImage, uploadFolder, uploadKey } from "./upload-storage";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const DAY_MS = 24 * 60 * 60 * 1000;

function solidImage(width: number, height: number) {
	return sharp({ create: { width, height, channels: 3, background: "#c0392b" } });
}

/** A multipart form with one file in the field `image`, as a browser or curl sends it. */
function imageForm(data: Uint8Array, name: string, type: string): FormData {
	const form = new FormData();
	form.set("image", new File([Buffer.from(data)], name, { type }));
	return form;
}

function upload(client: TestClient, data: Uint8Array, name = "photo.png", type = "image/png") {
	return client.request("/api/uploads", { method: "POST", body: imageForm(data, name, type) });
}

async function uploadOk(client: TestClient, data: Uint8Array, name?: string, type?: string) {
	const response = await upload(client, data, name, type);
	expect(response.status).toBe(201);
	return z.parse(UploadResponseSchema, await response.json());
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typed));
	return Buffer.concat([length, typed, crc]);
}

/**
 * A decompression bomb: a valid PNG of a few kilobytes whose pixels unpack to 20000 × 20000
 * (400 megapixels, 1.6 GB once decoded as RGBA). One bit a pixel, every row zero.
 */
function decompressionBomb(): Buffer {
	const side = 20_000;
	const header = Buffer.alloc(13);
	header.writeUInt32BE(side, 0);
	header.writeUInt32BE(side, 4);
	header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
	const rows = Buffer.alloc(side * (1 + side / 8));
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk("IHDR", header),
		pngChunk("IDAT", deflateSync(rows, { level: 9 })),
		pngChunk("IEND", Buffer.alloc(0)),
	]);
}

describe.each(availableDatabaseKinds())("uploaded reference images on %s", (kind) => {
	let server: TestServer;

	beforeAll(async () => {
		server = await createTestServer(kind);
	});
	afterAll(async () => {
		await server?.close();
	});

	/** Every key stored under the person's uploads folder. */
	async function storedKeysOf(person: Person): Promise<string[]> {
		const keys: string[] = [];
		for await (const page of server.storage.listKeys(uploadFolder(person.userId))) {
			keys.push(...page);
		}
		return keys.sort();
	}

	async function uploadRowsOf(person: Person): Promise<number> {
		const { rows } = await sql<{ count: string }>`
			select count(*) as count from uploads where user_id = ${person.userId}`.execute(
			server.database.db,
		);
		return Number(rows[0]?.count);
	}

	async function expectNothingStored(person: Person) {
		expect(await uploadRowsOf(person)).toBe(0);
		expect(await storedKeysOf(person)).toEqual([]);
	}

	it("stores a PNG, a JPEG and a WebP privately, each in its own format, and shows it to its owner", async () => {
		const person = await createTestUser(server);
		const files = [
			{ data: await solidImage(64, 48).png().toBuffer(), type: "image/png", ext: "png" },
			{ data: await solidImage(64, 48).jpeg().toBuffer(), type: "image/jpeg", ext: "jpg" },
			{ data: await solidImage(64, 48).webp().toBuffer(), type: "image/webp", ext: "webp" },
		] as const;
		for (const file of files) {
			// The name and declared type say nothing: the content decides.
			const created = await uploadOk(person.client, file.data, "whatever.bin", "text/plain");
			expect(created).toEqual({
				uploadId: expect.any(String),
				width: 64,
				height: 48,
				contentType: file.type,
			});
			const key = `uploads/${person.userId}/${created.uploadId}.${file.ext}`;
			expect(uploadKey(person.userId, created.uploadId, file.type)).toBe(key);
			const stored = await server.storage.get(key);
			expect(stored?.contentType).toBe(file.type);

			const image = await person.client.request(`/api/uploads/${created.uploadId}/image`);
			expect(image.status).toBe(200);
			expect(image.headers.get("content-type")).toBe(file.type);
			expect(image.headers.get("cache-control")).toMatch(/^private/);
			expect(Buffer.from(await image.arrayBuffer())).toEqual(Buffer.from(stored?.data ?? []));

			const row = await findOwnUpload(server.database.db, person.userId, created.uploadId);
			expect(row).toMatchObject({ storage_key: key, used_at: null });
			if (!row) continue;
			const input = await readUploadImage(server.storage, row);
			expect(input).toEqual({ data: stored?.data, contentType: file.type, width: 64, height: 48 });
		}
		expect(await storedKeysOf(person)).toHaveLength(3);
	});

	it("takes a file far larger than the API's limit for JSON bodies", async () => {
		const person = await createTestUser(server);
		const noise = randomBytes(600 * 600 * 3);
		const large = await sharp(noise, { raw: { width: 600, height: 600, channels: 3 } })
			.png()
			.toBuffer();
		expect(large.length).toBeGreaterThan(512 * 1024);
		const created = await uploadOk(person.client, large);
		expect([created.width, created.height]).toEqual([600, 600]);
	});

	it("refuses a file that is not a PNG, JPEG or WebP, whatever its name says", async () => {
		const person = await createTestUser(server);
		const gif = await solidImage(8, 8).gif().toBuffer();
		const text = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
		for (const data of [gif, text]) {
			const response = await upload(person.client, data, "photo.png", "image/png");
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
				"image must be a PNG, JPEG or WebP file.",
			);
		}
		await expectNothingStored(person);
	});

	it("answers 400 naming the field when there is no file in image", async () => {
		const person = await createTestUser(server);
		const form = new FormData();
		form.set("picture", new File([await solidImage(8, 8).png().toBuffer()], "a.png"));
		const wrongField = await person.client.request("/api/uploads", { method: "POST", body: form });
		expect(await expectErrorEnvelope(wrongField, 400, "VALIDATION_ERROR")).toBe(
			UPLOAD_MESSAGES.missing(),
		);
		const json = await person.client.request("/api/uploads", { method: "POST", json: {} });
		await expectErrorEnvelope(json, 400, "VALIDATION_ERROR");
		await expectNothingStored(person);
	});

	it("answers 413 for a file over 20 MB, counting a body without Content-Length as it arrives", async () => {
		const person = await createTestUser(server);
		const png = await solidImage(8, 8).png().toBuffer();
		// Just over the limit: the form fits the body's allowance, the file does not.
		const justOver = new Uint8Array(MAX_UPLOAD_BYTES + 1);
		justOver.set(png);
		const response = await upload(person.client, justOver);
		expect(await expectErrorEnvelope(response, 413, "PAYLOAD_TOO_LARGE")).toBe(
			UPLOAD_MESSAGES.tooLarge(),
		);
		// Far over: the body is refused while it is read (app.request sends a stream, no length).
		const farOver = new Uint8Array(MAX_UPLOAD_BYTES + 4 * 1024 * 1024);
		farOver.set(png);
		const stream = new Request("http://localhost/", {
			method: "POST",
			body: imageForm(farOver, "big.png", "image/png"),
		});
		expect(stream.headers.get("content-length")).toBeNull();
		const streamed = await person.client.request("/api/uploads", {
			method: "POST",
			headers: { "content-type": stream.headers.get("content-type") ?? "" },
			body: stream.body,
			duplex: "half",
		} as RequestInit);
		await expectErrorEnvelope(streamed, 413, "PAYLOAD_TOO_LARGE");
		// A declared length over the limit is refused before anything is read.
		const declared = await person.client.request("/api/uploads", {
			method: "POST",
			headers: { "content-length": String(MAX_UPLOAD_BYTES * 2) },
			body: imageForm(png, "a.png", "image/png"),
		});
		await expectErrorEnvelope(declared, 413, "PAYLOAD_TOO_LARGE");
		await expectNothingStored(person);
	});

	it("refuses a decompression bomb from its header, naming the limit", async () => {
		const person = await createTestUser(server);
		const bomb = decompressionBomb();
		expect(bomb.length).toBeLessThan(200 * 1024);
		const header = await sharp(bomb, { limitInputPixels: false }).metadata();
		expect([header.width, header.height]).toEqual([20_000, 20_000]);
		const response = await upload(person.client, bomb);
		// The header check's own answer: the decoder (with its own pixel limit) never ran.
		expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
			"image must be at most 40 megapixels; this one is 20000 × 20000 pixels.",
		);
		await expectNothingStored(person);
	});

	it("refuses a truncated PNG, JPEG or WebP as unreadable", async () => {
		const person = await createTestUser(server);
		const noisy = sharp(
			Buffer.from(Array.from({ length: 200 * 200 * 3 }, (_, i) => (i * 37) % 251)),
			{
				raw: { width: 200, height: 200, channels: 3 },
			},
		);
		for (const data of [
			await noisy.clone().png().toBuffer(),
			await noisy.clone().jpeg().toBuffer(),
			await noisy.clone().webp().toBuffer(),
		]) {
			const truncated = data.subarray(0, Math.floor(data.length * 0.6));
			const response = await upload(person.client, truncated);
			expect(await expectErrorEnvelope(response, 400, "VALIDATION_ERROR")).toBe(
				UPLOAD_MESSAGES.unreadable(),
			);
		}
		await expectNothingStored(person);
	});

	it("stores a photo upright without its EXIF and GPS data", async () => {
		const person = await createTestUser(server);
		const photo = await solidImage(40, 20)
			.jpeg()
			.withExif({
				IFD0: { Copyright: "Ada Lovelace", Make: "PhoneCam" },
				IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100" },
			})
			.withMetadata({ orientation: 6 })
			.toBuffer();
		const sent = await sharp(photo).metadata();
		expect(sent.orientation).toBe(6);
		expect(sent.exif?.toString("latin1")).toContain("Ada Lovelace");

		const created = await uploadOk(person.client, photo, "photo.jpg", "image/jpeg");
		// Orientation 6 is a quarter turn: the stored image is the upright one.
		expect([created.width, created.height]).toEqual([20, 40]);
		const stored = await server.storage.get(
			uploadKey(person.userId, created.uploadId, "image/jpeg"),
		);
		if (!stored) throw new Error("the upload was not stored");
		const metadata = await sharp(stored.data).metadata();
		expect(metadata).toMatchObject({ format: "jpeg", width: 20, height: 40 });
		expect(metadata.exif).toBeUndefined();
		expect(metadata.orientation).toBeUndefined();
		expect(metadata.xmp).toBeUndefined();
		expect(Buffer.from(stored.data).toString("latin1")).not.toMatch(/Exif|Ada Lovelace|PhoneCam/);
	});

	it("shows an upload only to its owner, and answers 401 to nobody", async () => {
		const owner = await createTestUser(server);
		const stranger = await createTestUser(server);
		const created = await uploadOk(owner.client, await solidImage(16, 16).png().toBuffer());
		const path = `/api/uploads/${created.uploadId}/image`;
		await expectErrorEnvelope(await stranger.client.request(path), 404, "NOT_FOUND");
		await expectErrorEnvelope(
			await stranger.client.request("/api/uploads/not-an-id/image"),
			404,
			"NOT_FOUND",
		);
		const anonymous = await server.app.request(path);
		await expectErrorEnvelope(anonymous, 401, "AUTH_ERROR");
		const signedOut = await server.app.request("/api/uploads", {
			method: "POST",
			headers: { origin: "http://localhost:3000" },
			body: imageForm(await solidImage(8, 8).png().toBuffer(), "a.png", "image/png"),
		});
		await expectErrorEnvelope(signedOut, 401, "SIGN_IN_REQUIRED");
	});

	it("takes an upload from a token with the generate scope only", async () => {
		const person = await createTestUser(server);
		const tokenWith = async (scopes: string[]) => {
			const response = await person.client.request("/api/account/tokens", {
				method: "POST",
				json: { name: "script", scopes, expiresInDays: 30 },
			});
			return z.parse(CreatedApiTokenSchema, await response.json()).token;
		};
		const png = await solidImage(8, 8).png().toBuffer();
		const send = (token: string) =>
			server.app.request("/api/uploads", {
				method: "POST",
				headers: { authorization: `Bearer ${token}` },
				body: imageForm(png, "a.png", "image/png"),
			});
		const refused = await send(await tokenWith(["read", "delete"]));
		expect(await expectErrorEnvelope(refused, 403, "TOKEN_SCOPE_MISSING")).toContain('"generate"');
		const accepted = await send(await tokenWith(["generate"]));
		expect(accepted.status).toBe(201);
		z.parse(UploadResponseSchema, await accepted.json());
	});

	it(`keeps at most ${MAX_UNUSED_UPLOADS} unused uploads a person, answering 429 beyond`, async () => {
		const person = await createTestUser(server);
		for (let index = 0; index < MAX_UNUSED_UPLOADS; index++) {
			const id = newUploadId();
			await insertUpload(server.database.db, {
				id,
				user_id: person.userId,
				storage_key: uploadKey(person.userId, id, "image/png"),
				content_type: "image/png",
				width: 8,
				height: 8,
				bytes: 100,
			});
		}
		const png = await solidImage(8, 8).png().toBuffer();
		const refused = await upload(person.client, png);
		expect(await expectErrorEnvelope(refused, 429, "RATE_LIMITED")).toBe(
			UPLOAD_MESSAGES.tooManyUnused(),
		);
		// A used upload does not count.
		const { rows } = await sql<{ id: string }>`
			select id from uploads where user_id = ${person.userId} limit 1`.execute(server.database.db);
		await markUploadUsed(server.database.db, rows[0]?.id ?? "");
		await uploadOk(person.client, png);
	});

	it("removes an upload no generation used a day after it, and keeps a used one", async () => {
		const person = await createTestUser(server);
		const png = await solidImage(8, 8).png().toBuffer();
		const unused = await uploadOk(person.client, png);
		const used = await uploadOk(person.client, png);
		const fresh = await uploadOk(person.client, png);
		await markUploadUsed(server.database.db, used.uploadId);
		await sql`
			update uploads set created_at = now() - interval '25 hours'
			where id in (${unused.uploadId}, ${used.uploadId})`.execute(server.database.db);

		await removeUnusedUploads({ db: server.database.db, storage: server.storage });

		const keyOf = (id: string) => uploadKey(person.userId, id, "image/png");
		expect(await findOwnUpload(server.database.db, person.userId, unused.uploadId)).toBeUndefined();
		expect(await storedKeysOf(person)).toEqual(
			[keyOf(used.uploadId), keyOf(fresh.uploadId)].sort(),
		);
		expect(await findOwnUpload(server.database.db, person.userId, used.uploadId)).toBeDefined();
		const gone = await person.client.request(`/api/uploads/${unused.uploadId}/image`);
		await expectErrorEnvelope(gone, 404, "NOT_FOUND");
	});

	it("removes an upload's object that no row names once it is a day old, and leaves a young one", async () => {
		const person = await createTestUser(server);
		const png = new Uint8Array(await solidImage(8, 8).png().toBuffer());
		const oldKey = uploadKey(person.userId, newUploadId(Date.now() - DAY_MS - 60_000), "image/png");
		// A young object may be an upload between its object and its row.
		const youngKey = uploadKey(person.userId, newUploadId(), "image/png");
		await server.storage.put(oldKey, png, "image/png");
		await server.storage.put(youngKey, png, "image/png");

		await removeUnusedUploads({ db: server.database.db, storage: server.storage });

		expect(await storedKeysOf(person)).toEqual([youngKey]);
	});

	it("removes every upload of a deleted account, leaving others'", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		const png = await solidImage(8, 8).png().toBuffer();
		await uploadOk(person.client, png);
		const used = await uploadOk(person.client, png);
		await markUploadUsed(server.database.db, used.uploadId);
		await uploadOk(other.client, png);
		expect(await storedKeysOf(person)).toHaveLength(2);

		const deleted = await person.client.request("/api/account/delete", {
			method: "POST",
			json: { email: person.email },
		});
		expect(deleted.status).toBe(200);

		await expectNothingStored(person);
		expect(await storedKeysOf(other)).toHaveLength(1);
	});
});
