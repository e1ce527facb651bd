import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_MESSAGES, UPLOAD_RATE_LIMITS } from "../../shared/image-input/upload-rules";
import { expectErrorEnvelope } from "../testing/error-envelope";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestServer, createTestUser, type TestServer } from "../testing/test-server";
import { uploadFolder } from "./upload-storage";

type Person = Awaited<ReturnType<typeof createTestUser>>;

const [PER_MINUTE, PER_HOUR] = UPLOAD_RATE_LIMITS;

/** A file that passes for a PNG by its first bytes and fails to decode. */
const UNDECODABLE_PNG = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.alloc(2048, 0x5a),
]);
const NOT_AN_IMAGE = Buffer.from("not an image at all\n");

function upload(person: Person, data: Uint8Array, type = "image/png") {
	const form = new FormData();
	form.set("image", new File([Buffer.from(data)], "photo.png", { type }));
	return person.client.request("/api/uploads", { method: "POST", body: form });
}

describe.each(availableDatabaseKinds())("upload rate limits on %s", (kind) => {
	let server: TestServer;
	let png: Buffer;

	beforeAll(async () => {
		server = await createTestServer(kind, { isWorkerEnabled: false });
		png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#2e86c1" } })
			.png()
			.toBuffer();
	});
	afterAll(async () => {
		await server?.close();
	});

	async function storedKeysOf(person: Person): Promise<string[]> {
		const keys: string[] = [];
		for await (const page of server.storage.listKeys(uploadFolder(person.userId))) {
			keys.push(...page);
		}
		return keys;
	}

	/** Moves this person's upload windows a minute into the past, as if a minute went by. */
	async function letAMinutePass(person: Person): Promise<void> {
		await sql`
			update address_rate_limits set window_started_at = window_started_at - interval '61 seconds'
			where key like ${`upload:${person.userId}:%`}`.execute(server.database.db);
	}

	it("counts uploads that fail to decode, and refuses the next one with 429 and Retry-After", async () => {
		const person = await createTestUser(server);
		const other = await createTestUser(server);
		for (let index = 0; index < PER_MINUTE.limit; index++) {
			const file = index % 2 === 0 ? UNDECODABLE_PNG : NOT_AN_IMAGE;
			expect((await upload(person, file)).status).toBe(400);
		}

		const refused = await upload(person, png);

		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(await expectErrorEnvelope(refused, 429, "RATE_LIMITED")).toBe(
			UPLOAD_MESSAGES.tooManyRecent(PER_MINUTE.limit, PER_MINUTE.windowSeconds, retryAfter)(),
		);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(PER_MINUTE.windowSeconds);
		expect(await storedKeysOf(person)).toEqual([]);
		// Each person has limits of their own.
		expect((await upload(other, png)).status).toBe(201);
		// Once the window is over the person may upload again.
		await letAMinutePass(person);
		expect((await upload(person, png)).status).toBe(201);
	});

	it(`holds a person to ${PER_HOUR.limit} uploads an hour, a minute's worth at a time`, async () => {
		const person = await createTestUser(server);
		for (let index = 0; index < PER_HOUR.limit; index++) {
			if (index > 0 && index % PER_MINUTE.limit === 0) await letAMinutePass(person);
			expect((await upload(person, NOT_AN_IMAGE)).status).toBe(400);
		}
		await letAMinutePass(person);

		const refused = await upload(person, png);

		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(await expectErrorEnvelope(refused, 429, "RATE_LIMITED")).toBe(
			UPLOAD_MESSAGES.tooManyRecent(PER_HOUR.limit, PER_HOUR.windowSeconds, retryAfter)(),
		);
		expect(retryAfter).toBeGreaterThan(PER_MINUTE.windowSeconds);
		expect(retryAfter).toBeLessThanOrEqual(PER_HOUR.windowSeconds);
	});
});
