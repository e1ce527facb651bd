import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { Database } from "../db/database";
import type { Storage } from "../storage/storage";
import { insertUpload, type UploadRow } from "../uploads/upload-repository";

/**
 * An upload of this person's as `POST /api/uploads` leaves one: a PNG stored under
 * `uploads/<userId>/<id>.png` and its row. For the tests of generations made from an upload.
 */
export async function insertTestUpload(
	deps: { database: Database; storage: Storage },
	userId: string,
	size: { width: number; height: number } = { width: 600, height: 400 },
): Promise<UploadRow> {
	const id = randomUUID();
	const data = await sharp({
		create: { ...size, channels: 3, background: { r: 30, g: 90, b: 160 } },
	})
		.composite([
			{
				input: await sharp({
					create: {
						width: Math.round(size.width / 2),
						height: Math.round(size.height / 2),
						channels: 3,
						background: { r: 240, g: 200, b: 60 },
					},
				})
					.png()
					.toBuffer(),
				left: Math.round(size.width / 4),
				top: Math.round(size.height / 4),
			},
		])
		.png()
		.toBuffer();
	const storageKey = `uploads/${userId}/${id}.png`;
	await deps.storage.put(storageKey, data, "image/png");
	return insertUpload(deps.database.db, {
		id,
		user_id: userId,
		storage_key: storageKey,
		content_type: "image/png",
		width: size.width,
		height: size.height,
		bytes: data.byteLength,
	});
}
